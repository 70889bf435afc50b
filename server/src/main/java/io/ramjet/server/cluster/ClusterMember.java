package io.ramjet.server.cluster;

/**
 * What a connection proved with the cluster secret: it belongs to broker {@code brokerId} of
 * group {@code brokerName}.
 */
public record ClusterMember(String brokerName, long brokerId) {
}
