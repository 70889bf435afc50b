package io.ramjet.protocol.command;

import io.ramjet.model.stats.DestinationStats;

import java.util.List;

/** Response header of {@link CommandCode#ADMIN_DESTINATIONS}, sorted by kind and name. */
public record DestinationStatsList(List<DestinationStats> destinations) {

    public DestinationStatsList {
        destinations = List.copyOf(destinations);
    }
}
