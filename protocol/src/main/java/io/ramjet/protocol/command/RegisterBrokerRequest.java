package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#REGISTER_BROKER}: everything a NameServer knows about a broker.
 * Sent again every heartbeat interval; each registration replaces the previous one.
 *
 * @param proof that the broker holds the NameServer secret, or null when it has none (a
 *              NameServer configured with a secret refuses the registration)
 */
public record RegisterBrokerRequest(BrokerInfo broker, List<DestinationInfo> destinations, BrokerProof proof) {

    public RegisterBrokerRequest {
        Objects.requireNonNull(broker, "broker");
        destinations = List.copyOf(destinations);
    }

    /** An unsigned registration. */
    public RegisterBrokerRequest(BrokerInfo broker, List<DestinationInfo> destinations) {
        this(broker, destinations, null);
    }

    public RegisterBrokerRequest withProof(BrokerProof newProof) {
        return new RegisterBrokerRequest(broker, destinations, newProof);
    }
}
