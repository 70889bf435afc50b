package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#UNREGISTER_BROKER}: a broker leaving cleanly.
 *
 * @param proof that the broker holds the NameServer secret, or null when it has none
 */
public record UnregisterBrokerRequest(String clusterName, String brokerName, long brokerId, BrokerProof proof) {

    public UnregisterBrokerRequest {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerName, "brokerName");
    }

    /** An unsigned unregistration. */
    public UnregisterBrokerRequest(String clusterName, String brokerName, long brokerId) {
        this(clusterName, brokerName, brokerId, null);
    }

    public static UnregisterBrokerRequest of(BrokerInfo broker) {
        return new UnregisterBrokerRequest(broker.clusterName(), broker.brokerName(), broker.brokerId());
    }

    public UnregisterBrokerRequest withProof(BrokerProof newProof) {
        return new UnregisterBrokerRequest(clusterName, brokerName, brokerId, newProof);
    }
}
