package io.ramjet.protocol.command;

import io.ramjet.model.stats.SubscriptionStats;

import java.util.List;

/** Response header of {@link CommandCode#ADMIN_SUBSCRIPTIONS}. */
public record SubscriptionStatsList(List<SubscriptionStats> subscriptions) {

    public SubscriptionStatsList {
        subscriptions = List.copyOf(subscriptions);
    }
}
