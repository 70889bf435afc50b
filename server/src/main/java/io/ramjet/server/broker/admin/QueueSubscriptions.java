package io.ramjet.server.broker.admin;

import io.ramjet.model.DestinationKind;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A queue's one subscription for an operator's purge or move: created at the head of the queue,
 * and logged, when no consumer ever came, as a first consumer would create it. Thread-safe.
 */
public final class QueueSubscriptions {

    private final MessageStore store;
    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final ConsumptionLog log;

    public QueueSubscriptions(MessageStore store, DestinationTable destinations, SubscriptionTable subscriptions,
                              ConsumptionLog log) {
        this.store = store;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.log = log;
    }

    /** @throws BrokerException NOT_FOUND when the broker has no queue of that name */
    public Destination queue(String name) {
        return destinations.find(DestinationKind.QUEUE, name).orElseThrow(() ->
                new BrokerException(Refusal.NOT_FOUND, "no queue named '" + name + "'"));
    }

    /** @throws BrokerException NOT_FOUND when the broker has no queue of that name */
    public Subscription of(String name) {
        Destination queue = queue(name);
        AtomicReference<long[]> starts = new AtomicReference<>();
        SubscriptionTable.Change change = subscriptions.ensureQueue(name, key -> {
            starts.set(heads(store, queue));
            return starts.get();
        });
        if (change.created()) {
            log.subscribed(change.subscription(), starts.get()).join();
        }
        return change.subscription();
    }

    /** Each message queue's first offset the store still holds for the destination. */
    static long[] heads(MessageStore store, Destination destination) {
        long[] offsets = new long[destination.queueCount()];
        for (int q = 0; q < offsets.length; q++) {
            offsets[q] = store.minQueueOffset(destination.storageName(), q);
        }
        return offsets;
    }
}
