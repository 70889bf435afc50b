package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.record.AckRecord;
import io.ramjet.server.broker.record.QueuePosition;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.SubscriptionKey;

import java.util.List;
import java.util.Objects;

/**
 * Messages a transaction consumed from one subscription through one consumer: acknowledged if
 * it commits, released if not. As decoded from a record the consumer is
 * {@link ConsumedMessages#HOLDER}: the transaction itself holds them.
 */
public record AckGroup(SubscriptionKey subscription, long consumer, List<Delivery> positions) {

    public AckGroup {
        Objects.requireNonNull(subscription, "subscription");
        positions = List.copyOf(positions);
    }

    /** Acknowledgements a record holds, held by the transaction itself ({@link ConsumedMessages#HOLDER}). */
    static AckGroup held(AckRecord record) {
        return new AckGroup(SubscriptionKey.of(record.subscription()), ConsumedMessages.HOLDER,
                record.positions().stream().map(p -> new Delivery(p.queueId(), p.offset(), 0)).toList());
    }

    /** The form transaction records and the snapshot hold it in. */
    AckRecord toRecord() {
        return new AckRecord(subscription.toRecord(),
                positions.stream().map(d -> new QueuePosition(d.queueId(), d.offset())).toList());
    }

    static List<AckGroup> held(List<AckRecord> records) {
        return records.stream().map(AckGroup::held).toList();
    }

    static List<AckRecord> toRecords(List<AckGroup> groups) {
        return groups.stream().map(AckGroup::toRecord).toList();
    }
}
