package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Identity and address of one broker instance.
 *
 * @param clusterName cluster the broker group belongs to
 * @param brokerName  broker group name (a master and its slaves share it)
 * @param brokerId    0 for the master, positive for slaves
 * @param address     {@code host:port} clients connect to
 */
public record BrokerInfo(String clusterName, String brokerName, long brokerId, String address) {

    public static final long MASTER_ID = 0;

    public BrokerInfo {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(address, "address");
    }

    public boolean isMaster() {
        return brokerId == MASTER_ID;
    }
}
