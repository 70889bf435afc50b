package io.ramjet.controller;

import java.io.IOException;
import java.time.Duration;

/**
 * Reads of one controller node for tests, each on a client of its own with a short timeout: a
 * long-lived client keeps its connection to a node that was stopped or killed (Ratis does not
 * reopen it), and its retries under a long timeout would hold one probe for minutes.
 */
final class Probes {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private Probes() {
    }

    /** What node {@code nodeId} has applied for {@code brokerName}, as it answers a stale read. */
    static ReplicaInfo replicaInfoAt(ControllerGroup group, String nodeId, String brokerName) throws IOException {
        try (ControllerClient probe = ControllerClient.connect(group, TIMEOUT)) {
            return probe.replicaInfoAt(nodeId, brokerName).info();
        }
    }
}
