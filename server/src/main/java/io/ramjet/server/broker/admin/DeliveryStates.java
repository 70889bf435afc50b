package io.ramjet.server.broker.admin;

import io.ramjet.model.stats.ConsumerDeliveryState;
import io.ramjet.model.stats.DestinationDeliveryState;
import io.ramjet.model.stats.QueueDeliveryState;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.subscription.QueueCursor;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How the deliveries of a destination stand, for an operator (or a benchmark) asking why a
 * consumer gets nothing: the CommitLog's written, forced and dispatched positions, and per
 * message queue of each of its subscriptions the ConsumeQueue's ends, the cursor's marks, and
 * each consumer's messages in flight, scan floor and held pulls. Each queue is read under its
 * subscription's lock, one after another, so the answer is not one atomic snapshot of the
 * broker. Reads only; nothing on the message path counts for it. Thread-safe.
 */
public final class DeliveryStates {

    private final MessageStore store;
    private final SubscriptionTable subscriptions;
    private final HeldPulls heldPulls;

    public DeliveryStates(MessageStore store, SubscriptionTable subscriptions, HeldPulls heldPulls) {
        this.store = store;
        this.subscriptions = subscriptions;
        this.heldPulls = heldPulls;
    }

    /** The state of every subscription of the destinations named {@code destination} (queue and topic alike). */
    public DestinationDeliveryState of(String destination) {
        long written = store.maxPhysicalOffset();
        long flushed = store.flushedOffset();
        long dispatched = store.dispatchedOffset();
        List<QueueDeliveryState> queues = new ArrayList<>();
        subscriptions.all().stream()
                .filter(s -> s.key().destination().equals(destination))
                .sorted(Comparator.comparing((Subscription s) -> s.key().destinationKind())
                        .thenComparing(s -> s.key().label()))
                .forEach(s -> {
                    for (int q = 0; q < s.queueCount(); q++) {
                        queues.add(state(s, q));
                    }
                });
        return new DestinationDeliveryState(written, flushed, dispatched, queues);
    }

    private QueueDeliveryState state(Subscription s, int queueId) {
        String storageName = s.key().storageName();
        long min = store.minQueueOffset(storageName, queueId);
        long max = store.maxQueueOffset(storageName, queueId);
        Map<Long, Integer> held = heldPulls.heldBy(storageName, s);
        Set<Long> attached = s.consumers();
        return s.withCursor(queueId, cursor -> {
            Map<Long, QueueCursor.InFlightSpan> inFlight = cursor.inFlightByConsumer();
            Set<Long> ids = new TreeSet<>(attached);
            ids.addAll(inFlight.keySet());
            ids.addAll(held.keySet());
            List<ConsumerDeliveryState> consumers = new ArrayList<>(ids.size());
            for (long id : ids) {
                QueueCursor.InFlightSpan span = inFlight.get(id);
                consumers.add(new ConsumerDeliveryState(id, span == null ? 0 : span.count(),
                        span == null ? -1 : span.first(), span == null ? -1 : span.last(), cursor.scanFloor(id),
                        held.getOrDefault(id, 0)));
            }
            return new QueueDeliveryState(s.key().destination(), s.key().destinationKind(), s.key().label(),
                    queueId, min, max, cursor.lowWater(), cursor.readOffset(), cursor.pendingCount(),
                    cursor.inFlightCount(), cursor.firstVisible(), consumers);
        });
    }
}
