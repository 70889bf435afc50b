package io.ramjet.server.broker.durability;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.record.ConsumptionRecordDescriptor;
import io.ramjet.server.broker.record.QueuePosition;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the broker records written after the loaded snapshot to the destination and
 * subscription tables, while the store recovers. Records below the snapshot's position are
 * already in it; records dispatched once the broker runs were applied in memory before they
 * were written, so only {@link #replaying} ones are applied. Every operation is idempotent.
 * Called on the thread that opens the store.
 */
public final class ConsumptionReplay {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumptionReplay.class);

    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final DeliveryMarks marks;
    private final long fromPosition;
    private volatile boolean replaying = true;
    private int applied;

    /** @param fromPosition the snapshot's position: records from there on are applied */
    public ConsumptionReplay(DestinationTable destinations, SubscriptionTable subscriptions, DeliveryMarks marks,
                             long fromPosition) {
        this.marks = marks;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.fromPosition = fromPosition;
    }

    /** Recovery is over: from now on records were applied before being written. */
    public void finish() {
        replaying = false;
        LOG.info("replayed {} consumption records after the snapshot at {}", applied, fromPosition);
    }

    public boolean replaying() {
        return replaying;
    }

    public void onRecord(MessageRecordView record) {
        RecordType type = record.type();
        if (!replaying || record.physicalOffset() < fromPosition
                || (type != RecordType.ACK && type != RecordType.SUBSCRIPTION)
                || !ConsumptionRecordDescriptor.DESTINATION.equals(record.destination())) {
            return;
        }
        apply(ConsumptionRecordDescriptor.decode(record.body()));
        applied++;
    }

    private void apply(ConsumptionRecordDescriptor.Decoded r) {
        switch (r.op()) {
            case ConsumptionRecordDescriptor.ACK -> subscriptions.find(SubscriptionKey.of(r.key())).ifPresent(s -> {
                for (QueuePosition p : r.positions()) {
                    if (p.queueId() < s.queueCount()) {
                        s.withCursor(p.queueId(), cursor -> cursor.ack(p.offset()));
                    }
                }
            });
            case ConsumptionRecordDescriptor.SUBSCRIBE -> {
                SubscriptionKey key = SubscriptionKey.of(r.key());
                Subscription existing = subscriptions.find(key).orElse(null);
                if (existing == null || !existing.key().equals(key) || !existing.sameTerms(r.selector(), r.noLocal())) {
                    marks.reset(key);
                    subscriptions.restore(new Subscription(key, r.selector(), r.noLocal(), r.startOffsets()));
                }
            }
            case ConsumptionRecordDescriptor.MARK -> marks.raise(SubscriptionKey.of(r.key()),
                    r.positions().get(0).queueId(), r.positions().get(0).offset());
            case ConsumptionRecordDescriptor.UNSUBSCRIBE -> {
                SubscriptionKey key = SubscriptionKey.of(r.key());
                subscriptions.find(key).ifPresent(s -> subscriptions.deleteDurable(key.clientId(), key.name()));
            }
            case ConsumptionRecordDescriptor.CREATE_DESTINATION ->
                    destinations.create(new Destination(r.destination(), r.kind(), r.queueCount(), false));
            case ConsumptionRecordDescriptor.DELETE_DESTINATION -> {
                destinations.delete(r.kind(), r.destination());
                subscriptions.deleteAll(r.kind(), r.destination());
            }
            default -> throw new IllegalStateException("operation " + r.op());
        }
    }
}
