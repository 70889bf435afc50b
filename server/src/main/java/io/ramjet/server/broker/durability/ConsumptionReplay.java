package io.ramjet.server.broker.durability;

import io.ramjet.server.broker.log.ConsumptionRecordDescriptor;

import io.ramjet.server.broker.log.DeliveryMarks;

import io.ramjet.protocol.record.MessageRecordView;
import io.ramjet.protocol.record.RecordType;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
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
            case ConsumptionRecordDescriptor.ACK -> subscriptions.find(r.key()).ifPresent(s -> {
                for (Delivery d : r.positions()) {
                    if (d.queueId() < s.queueCount()) {
                        s.withCursor(d.queueId(), cursor -> cursor.ack(d.offset()));
                    }
                }
            });
            case ConsumptionRecordDescriptor.SUBSCRIBE -> {
                Subscription existing = subscriptions.find(r.key()).orElse(null);
                if (existing == null || !existing.key().equals(r.key())
                        || !existing.sameTerms(r.selector(), r.noLocal())) {
                    marks.reset(r.key());
                    subscriptions.restore(new Subscription(r.key(), r.selector(), r.noLocal(), r.startOffsets()));
                }
            }
            case ConsumptionRecordDescriptor.MARK ->
                    marks.raise(r.key(), r.positions().get(0).queueId(), r.positions().get(0).offset());
            case ConsumptionRecordDescriptor.UNSUBSCRIBE -> subscriptions.find(r.key()).ifPresent(s ->
                    subscriptions.deleteDurable(r.key().clientId(), r.key().name()));
            case ConsumptionRecordDescriptor.CREATE_DESTINATION -> destinations.create(r.destination());
            case ConsumptionRecordDescriptor.DELETE_DESTINATION -> {
                destinations.delete(r.destination().kind(), r.destination().name());
                subscriptions.deleteAll(r.destination().kind(), r.destination().name());
            }
            default -> throw new IllegalStateException("operation " + r.op());
        }
    }
}
