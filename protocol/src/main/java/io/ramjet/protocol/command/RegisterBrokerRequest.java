package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#REGISTER_BROKER}: everything a NameServer knows about a broker.
 * Sent again every heartbeat interval; each registration replaces the previous one.
 *
 * @param proof that the broker holds the NameServer secret, or null when it has none (a
 *              NameServer configured with a secret refuses the registration)
 * @param epoch the master's epoch (its {@code epochs} file's, or the controller's): per broker
 *              group the NameServer routes to the master of the highest epoch, so a promoted
 *              master replaces its live predecessor and a stale one is refused
 */
public record RegisterBrokerRequest(BrokerInfo broker, List<DestinationInfo> destinations, BrokerProof proof,
                                    int epoch) {

    public RegisterBrokerRequest {
        Objects.requireNonNull(broker, "broker");
        destinations = List.copyOf(destinations);
    }

    /** An unsigned registration. */
    public RegisterBrokerRequest(BrokerInfo broker, List<DestinationInfo> destinations, int epoch) {
        this(broker, destinations, null, epoch);
    }

    public RegisterBrokerRequest withProof(BrokerProof newProof) {
        return new RegisterBrokerRequest(broker, destinations, newProof, epoch);
    }
}
