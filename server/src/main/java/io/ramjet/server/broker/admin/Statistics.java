package io.ramjet.server.broker.admin;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.stats.DestinationStats;
import io.ramjet.model.stats.SubscriptionStats;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.subscription.Backlog;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.storage.MessageStore;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Depths and backlogs, sampled from the ConsumeQueues, the subscriptions' cursors and the timer
 * store at the moment of asking; nothing is counted on the message path for them. Each
 * subscription is read under its own lock, one after another, so a listing is not one atomic
 * snapshot of the broker. Thread-safe.
 */
public final class Statistics {

    private final MessageStore store;
    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final DelayedMessages delayed;

    public Statistics(MessageStore store, DestinationTable destinations, SubscriptionTable subscriptions,
                      DelayedMessages delayed) {
        this.store = store;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.delayed = delayed;
    }

    /** @param name only the destinations of that name, null for all */
    public List<DestinationStats> destinations(String name) {
        Map<String, Long> delayedByStorageName = new HashMap<>();
        delayed.pending().forEach(t -> delayedByStorageName.merge(t.destination(), 1L, Long::sum));
        return destinations.list().stream()
                .filter(d -> name == null || d.name().equals(name))
                .sorted(Comparator.comparing(Destination::kind).thenComparing(Destination::name))
                .map(d -> stats(d, delayedByStorageName.getOrDefault(d.storageName(), 0L)))
                .toList();
    }

    /** @param destination only the subscriptions of that destination, null for all */
    public List<SubscriptionStats> subscriptions(String destination) {
        return subscriptions.all().stream()
                .filter(s -> destination == null || s.key().destination().equals(destination))
                .sorted(Comparator.comparing((Subscription s) -> s.key().destination())
                        .thenComparing(s -> s.key().name()))
                .map(this::stats)
                .toList();
    }

    /**
     * One destination's figures, read without stopping it: a message stored between the reading
     * of the queue ends and of the backlog shows in the backlog only, so the acknowledged count
     * (their difference) is kept from going below 0 (a Prometheus counter must not).
     */
    private DestinationStats stats(Destination d, long delayedCount) {
        long enqueued = 0;
        for (int q = 0; q < d.queueCount(); q++) {
            enqueued += store.maxQueueOffset(d.storageName(), q);
        }
        List<Subscription> own = subscriptions.of(d.name()).stream()
                .filter(s -> s.key().destinationKind() == d.kind()).toList();
        int consumers = own.stream().mapToInt(s -> s.consumers().size()).sum();
        Backlog backlog = Backlog.NONE;
        if (d.kind() == DestinationKind.QUEUE) {
            Subscription queue = own.stream().filter(s -> s.key().kind() == SubscriptionKind.QUEUE).findFirst()
                    .orElse(null);
            backlog = queue == null ? unconsumed(d) : backlog(queue);
        }
        return new DestinationStats(d.name(), d.kind(), d.temporary(), d.queueCount(), enqueued, backlog.ready(),
                backlog.inFlight(), backlog.redelivering(), delayedCount,
                d.kind() == DestinationKind.QUEUE ? Math.max(0, enqueued - backlog.total()) : 0,
                consumers, own.size());
    }

    private SubscriptionStats stats(Subscription s) {
        Backlog backlog = backlog(s);
        return new SubscriptionStats(s.key().destination(), s.key().destinationKind(), s.key().kind().name(),
                s.key().clientId(), s.key().name(), s.selector(), s.noLocal(), s.consumers().size(), backlog.total(),
                backlog.inFlight());
    }

    /** A subscription's backlog over its message queues. */
    Backlog backlog(Subscription s) {
        Backlog total = Backlog.NONE;
        String storageName = s.key().storageName();
        for (int q = 0; q < s.queueCount(); q++) {
            long max = store.maxQueueOffset(storageName, q);
            total = total.plus(s.withCursor(q, cursor -> cursor.backlog(max)));
        }
        return total;
    }

    /** A queue nobody subscribed to yet: everything retained is ready. */
    private Backlog unconsumed(Destination d) {
        long ready = 0;
        for (int q = 0; q < d.queueCount(); q++) {
            ready += store.maxQueueOffset(d.storageName(), q) - store.minQueueOffset(d.storageName(), q);
        }
        return new Backlog(ready, 0, 0);
    }
}
