package io.ramjet.protocol.command;

import java.util.List;

/** Response header of {@link CommandCode#LIST_DESTINATIONS}: every destination of the broker. */
public record DestinationList(List<DestinationInfo> destinations) {

    public DestinationList {
        destinations = List.copyOf(destinations);
    }
}
