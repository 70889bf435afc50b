package io.ramjet.protocol.command;

import java.util.Objects;

/** Header of {@link CommandCode#UNREGISTER_BROKER}: a broker leaving cleanly. */
public record UnregisterBrokerRequest(String clusterName, String brokerName, long brokerId) {

    public UnregisterBrokerRequest {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerName, "brokerName");
    }

    public static UnregisterBrokerRequest of(BrokerInfo broker) {
        return new UnregisterBrokerRequest(broker.clusterName(), broker.brokerName(), broker.brokerId());
    }
}
