package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#REGISTER_BROKER}: everything a NameServer knows about a broker.
 * Sent again every heartbeat interval; each registration replaces the previous one.
 */
public record RegisterBrokerRequest(BrokerInfo broker, List<DestinationInfo> destinations) {

    public RegisterBrokerRequest {
        Objects.requireNonNull(broker, "broker");
        destinations = List.copyOf(destinations);
    }
}
