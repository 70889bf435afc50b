package io.ramjet.server.broker;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.durability.ConsumptionReplay;
import io.ramjet.server.broker.durability.ConsumptionSnapshotter;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.server.broker.record.ConsumptionRecordDescriptor;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.transaction.TransactionDispatch;
import io.ramjet.storage.ConsumeQueueWriter;
import io.ramjet.storage.DispatchListener;
import io.ramjet.storage.LogReader;

/**
 * The broker's view of the CommitLog as it grows: NORMAL records go into their ConsumeQueue
 * and wake the pulls held on their destination; transaction records (PREPARED, VOTE, COMMIT,
 * ROLLBACK) go to the {@link TransactionDispatch}, live and during recovery; every record that names an
 * idempotent producer goes to the {@link ProducerTable} too, so recovery and a slave rebuild it; the broker's own records are replayed while the
 * store recovers; a checkpoint first writes
 * the consumption snapshot. A DELETE_DESTINATION record deletes the destination's ConsumeQueues at
 * its place in the log, live and during recovery, so that a deletion survives a crash and
 * recovery never brings back the entries of a deleted destination. Runs in the store's dispatch passes (one thread at a time), and
 * during recovery before the store has opened (when no pull can be held yet).
 */
final class BrokerDispatchListener implements DispatchListener {

    private final DispatchListener messages = DispatchListener.normalMessages();
    private final HeldPulls heldPulls;
    private final ConsumptionReplay replay;
    private final ConsumptionSnapshotter snapshotter;
    private final DelayedMessages delayed;
    private final TransactionDispatch transactions;
    private final ProducerTable producers;

    BrokerDispatchListener(HeldPulls heldPulls, ConsumptionReplay replay,
                           ConsumptionSnapshotter snapshotter, DelayedMessages delayed,
                           TransactionDispatch transactions, ProducerTable producers) {
        this.producers = producers;
        this.transactions = transactions;
        this.delayed = delayed;
        this.heldPulls = heldPulls;
        this.replay = replay;
        this.snapshotter = snapshotter;
    }

    @Override
    public void onRecord(MessageRecordView record, ConsumeQueueWriter queues) {
        producers.onRecord(record);
        if (record.type() == RecordType.NORMAL) {
            messages.onRecord(record, queues);
            heldPulls.wake(record.destination());
            if (replay.replaying()) {
                delayed.onReplayedMessage(record);
            }
        } else if (record.type() == RecordType.TIMER) {
            delayed.onTimerRecord(record);
        } else if (TransactionDispatch.handles(record.type())) {
            transactions.onRecord(record, queues);
        } else {
            replay.onRecord(record);
            deleteQueuesOfDeleted(record, queues);
        }
    }

    private static void deleteQueuesOfDeleted(MessageRecordView record, ConsumeQueueWriter queues) {
        if (record.type() != RecordType.SUBSCRIPTION
                || !ConsumptionRecordDescriptor.DESTINATION.equals(record.destination())
                || record.body().remaining() == 0
                || record.body().get(0) != ConsumptionRecordDescriptor.DELETE_DESTINATION) {
            return;
        }
        ConsumptionRecordDescriptor.Decoded deleted = ConsumptionRecordDescriptor.decode(record.body());
        queues.deleteQueues(Destination.storageName(deleted.kind(), deleted.destination()));
    }

    @Override
    public void readsFrom(LogReader log) {
        transactions.readsFrom(log);
    }

    @Override
    public void beforeCheckpoint(long offset) {
        snapshotter.snapshot(offset);
    }
}
