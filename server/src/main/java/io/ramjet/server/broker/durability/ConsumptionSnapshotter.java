package io.ramjet.server.broker.durability;

import io.ramjet.server.broker.log.DeliveryMarks;

import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.transaction.TransactionSnapshot;
import io.ramjet.server.broker.transaction.TransactionTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the destinations, durable subscriptions, pending timers and transactions to the {@link SnapshotFile} before each
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
    private final TransactionTable transactions;

    public ConsumptionSnapshotter(SnapshotFile file, DestinationTable destinations, SubscriptionTable subscriptions,
                                  DelayedMessages delayed, DeliveryMarks marks, TransactionTable transactions) {
        this.transactions = transactions;
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
        byte[] transactionSection;
        try {
            transactionSection = TransactionSnapshot.encode(transactions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode the transactions", e);
        }
        file.write(new SnapshotDescriptor.Contents(position,
                destinations.list().stream().filter(d -> !d.temporary()).toList(), durable, bounds, delayed.pending(),
                transactionSection));
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
            if (contents.transactions().length > 0) {
                try {
                    TransactionSnapshot.restore(transactions, contents.transactions());
                } catch (IOException e) {
                    throw new UncheckedIOException("damaged transaction section in the snapshot", e);
                }
            }
            return contents.position();
        }).orElse(0L);
    }
}
