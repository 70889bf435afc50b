package io.ramjet.model.stats;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/**
 * One subscription as an operator sees it.
 *
 * @param kind      QUEUE, TOPIC, SHARED, DURABLE or SHARED_DURABLE
 * @param clientId  the owner's client id; null for a queue's, a non-durable one, or a shared one without
 * @param name      the subscription name; null for a queue's and a non-durable topic one
 * @param selector  its selector (a queue's has none: each consumer has its own)
 * @param backlog   messages it still has to consume (ready and in flight)
 * @param inFlight  of those, messages handed to a consumer and not yet acknowledged
 */
public record SubscriptionStats(String destination, DestinationKind destinationKind, String kind, String clientId,
                                String name, String selector, boolean noLocal, int consumers, long backlog,
                                long inFlight) {

    public SubscriptionStats {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(kind, "kind");
    }
}
