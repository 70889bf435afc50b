package io.ramjet.protocol.command;

import io.ramjet.model.stats.ConsumerStats;

import java.util.List;

/** Response header of {@link CommandCode#ADMIN_CONSUMERS}. */
public record ConsumerStatsList(List<ConsumerStats> consumers) {

    public ConsumerStatsList {
        consumers = List.copyOf(consumers);
    }
}
