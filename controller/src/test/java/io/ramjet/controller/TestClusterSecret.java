package io.ramjet.controller;

/** The cluster secret of the controller tests' groups and their clients. */
final class TestClusterSecret {

    static final String TEXT = "the controller tests' cluster secret";
    static final ClusterSecret SECRET = ClusterSecret.of(TEXT);

    private TestClusterSecret() {
    }
}
