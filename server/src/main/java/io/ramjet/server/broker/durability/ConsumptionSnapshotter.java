package io.ramjet.server.broker.durability;

import io.ramjet.server.broker.delivery.DelayedMessages;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import io.ramjet.server.broker.subscription.SubscriptionKey;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the destinations, durable subscriptions and pending timers to the {@link SnapshotFile} before each
 * store checkpoint, positioned at the checkpoint's offset: every broker record below it was
 * applied in memory before it was written, so the snapshot holds it; records from there on are
 * replayed at the next start, and replaying one the snapshot already holds changes nothing.
 * Called on the store's checkpoint thread.
 */
public final class ConsumptionSnapshotter {

    private final SnapshotFile file;
    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final DelayedMessages delayed;
    private final DeliveryMarks marks;

    public ConsumptionSnapshotter(SnapshotFile file, DestinationTable destinations, SubscriptionTable subscriptions,
                                  DelayedMessages delayed, DeliveryMarks marks) {
        this.marks = marks;
        this.delayed = delayed;
        this.file = file;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
    }

    public void snapshot(long position) {
        List<Subscription> durable = subscriptions.all().stream().filter(s -> s.key().kind().durable()).toList();
        Map<SubscriptionKey, long[]> bounds = new HashMap<>();
        for (Subscription s : durable) {
            bounds.put(s.key(), marks.of(s.key(), s.queueCount()));
        }
        file.write(new SnapshotDescriptor.Contents(position,
                destinations.list().stream().filter(d -> !d.temporary()).toList(), durable, bounds, delayed.pending()));
    }

    /** Loads the last snapshot into the tables; returns its position, 0 when there is none. */
    public long load() {
        return file.read().map(contents -> {
            contents.destinations().forEach(destinations::create);
            contents.subscriptions().forEach(subscriptions::restore);
            delayed.restore(contents.timers());
            contents.deliveryBounds().forEach((key, bounds) -> {
                for (int q = 0; q < bounds.length; q++) {
                    marks.raise(key, q, bounds[q]);
                }
            });
            return contents.position();
        }).orElse(0L);
    }
}
