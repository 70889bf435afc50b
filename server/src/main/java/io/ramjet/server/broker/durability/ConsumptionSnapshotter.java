package io.ramjet.server.broker.durability;

import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.idempotence.ProducerSnapshot;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.record.SnapshotDescriptor.CursorEntry;
import io.ramjet.server.broker.record.SnapshotDescriptor.DestinationEntry;
import io.ramjet.server.broker.record.SnapshotDescriptor.SubscriptionEntry;
import io.ramjet.server.broker.record.SnapshotDescriptor.TimerEntry;
import io.ramjet.server.broker.record.SnapshotDescriptor;
import io.ramjet.server.broker.record.TransactionSnapshot;
import io.ramjet.server.broker.subscription.QueueCursor;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.transaction.TransactionTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the destinations, durable subscriptions, pending timers, transactions and idempotent producers to the {@link SnapshotFile} before each
 * store checkpoint, positioned at the checkpoint's offset: every broker record below it was
 * applied in memory before it was written, so the snapshot holds it; records from there on are
 * replayed at the next start, and replaying one the snapshot already holds changes nothing.
 * Turns the tables into the snapshot's entries ({@link SnapshotDescriptor}) and back.
 * Called on the store's checkpoint thread.
 */
public final class ConsumptionSnapshotter {

    private final SnapshotFile file;
    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final DelayedMessages delayed;
    private final DeliveryMarks marks;
    private final TransactionTable transactions;
    private final ProducerTable producers;

    public ConsumptionSnapshotter(SnapshotFile file, DestinationTable destinations, SubscriptionTable subscriptions,
                                  DelayedMessages delayed, DeliveryMarks marks, TransactionTable transactions,
                                  ProducerTable producers) {
        this.producers = producers;
        this.transactions = transactions;
        this.marks = marks;
        this.delayed = delayed;
        this.file = file;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
    }

    public void snapshot(long position) {
        List<SubscriptionEntry> durable = new ArrayList<>();
        for (Subscription s : subscriptions.all()) {
            if (s.key().kind().durable()) {
                durable.add(entry(s));
            }
        }
        byte[] transactionSection;
        try {
            transactionSection = TransactionSnapshot.encode(transactions.save());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode the transactions", e);
        }
        List<DestinationEntry> kept = destinations.list().stream().filter(d -> !d.temporary())
                .map(d -> new DestinationEntry(d.name(), d.kind(), d.queueCount())).toList();
        List<TimerEntry> timers = delayed.pending().stream().map(t -> new TimerEntry(t.physicalOffset(),
                t.deliveryTime(), t.destination(), t.queueId(), t.bornTimestamp())).toList();
        file.write(new SnapshotDescriptor.Contents(position, kept, durable, timers, transactionSection,
                ProducerSnapshot.encode(producers.save(position))));
    }

    private SubscriptionEntry entry(Subscription s) {
        long[] bounds = marks.of(s.key(), s.queueCount());
        List<CursorEntry> cursors = new ArrayList<>(s.queueCount());
        for (int q = 0; q < s.queueCount(); q++) {
            long bound = bounds[q];
            cursors.add(s.withCursor(q, c -> new CursorEntry(c.lowWater(), c.readOffset(), bound, c.pendingOffsets())));
        }
        return new SubscriptionEntry(s.key().toRecord(), s.selector(), s.noLocal(), cursors);
    }

    /** Loads the last snapshot into the tables; returns its position, 0 when there is none. */
    public long load() {
        return file.read().map(contents -> {
            contents.destinations().forEach(d ->
                    destinations.create(new Destination(d.name(), d.kind(), d.queueCount(), false)));
            for (SubscriptionEntry e : contents.subscriptions()) {
                SubscriptionKey key = SubscriptionKey.of(e.key());
                QueueCursor[] cursors = new QueueCursor[e.cursors().size()];
                for (int q = 0; q < cursors.length; q++) {
                    CursorEntry c = e.cursors().get(q);
                    cursors[q] = QueueCursor.restore(q, c.lowWater(), c.readOffset(), c.pending());
                    marks.raise(key, q, c.deliveryBound());
                }
                subscriptions.restore(new Subscription(key, e.selector(), e.noLocal(), cursors));
            }
            delayed.restore(contents.timers().stream().map(t -> new DelayedMessages.Timer(t.physicalOffset(),
                    t.deliveryTime(), t.destination(), t.queueId(), t.bornTimestamp())).toList());
            if (contents.transactions().length > 0) {
                try {
                    transactions.restore(TransactionSnapshot.decode(contents.transactions()));
                } catch (IOException e) {
                    throw new UncheckedIOException("damaged transaction section in the snapshot", e);
                }
            }
            if (contents.producers().length > 0) {
                try {
                    producers.restore(ProducerSnapshot.decode(contents.producers()));
                } catch (IOException e) {
                    throw new UncheckedIOException("damaged producer section in the snapshot", e);
                }
            }
            return contents.position();
        }).orElse(0L);
    }
}
