package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.record.TransactionRecordDescriptor;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.storage.ConsumeQueueWriter;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies transaction records as the dispatcher passes them, live and while the store recovers:
 * a PREPARED record adds a half to its transaction, a VOTE prepares it and holds what it
 * consumed, a COMMIT puts the ConsumeQueue entries its slots reserved (pointing at the half
 * records), hands delayed halves to the timer store, acknowledges what the transaction consumed
 * and forgets it, a ROLLBACK releases what it held and forgets it. The processors only write
 * the records and wait for their dispatch, so memory changes in log order, and a record
 * replayed after the snapshot that already holds its effect changes nothing.
 *
 * <p>During recovery, records below the snapshot's position (replayed when the ConsumeQueues
 * are rebuilt from the whole log) only put their queue entries. Runs in the store's dispatch
 * passes (one thread at a time), or on the opening thread during recovery.
 */
public final class TransactionDispatch {

    private final TransactionTable table;
    private final ConsumedMessages consumed;
    private final DelayedMessages delayed;
    private final HeldPulls heldPulls;
    private volatile long snapshotPosition;
    private volatile boolean replaying = true;

    TransactionDispatch(TransactionTable table, ConsumedMessages consumed, DelayedMessages delayed,
                        HeldPulls heldPulls) {
        this.table = table;
        this.consumed = consumed;
        this.delayed = delayed;
        this.heldPulls = heldPulls;
    }

    /** The snapshot loaded holds every transaction record below {@code position}. */
    void replayFrom(long position) {
        snapshotPosition = position;
    }

    /** Recovery is over. */
    void finishReplay() {
        replaying = false;
    }

    /** Whether this record type is one of the transaction's. */
    public static boolean handles(RecordType type) {
        return type == RecordType.PREPARED || type == RecordType.VOTE || type == RecordType.COMMIT
                || type == RecordType.ROLLBACK;
    }

    public void onRecord(MessageRecordView record, ConsumeQueueWriter queues) {
        boolean inSnapshot = replaying && record.physicalOffset() < snapshotPosition;
        switch (record.type()) {
            case PREPARED -> {
                if (!inSnapshot && !decided(record.queueOffset())) {
                    table.addHalf(record.queueOffset(), Half.of(record), record.storeTimestamp());
                }
            }
            case VOTE -> {
                TransactionRecordDescriptor.Vote vote = TransactionRecordDescriptor.decodeVote(record.body());
                if (!inSnapshot && !decided(vote.transactionId())) {
                    onVote(vote);
                }
            }
            case COMMIT -> onCommit(record, TransactionRecordDescriptor.decodeCommit(record.body()), queues,
                    inSnapshot);
            case ROLLBACK -> {
                if (!inSnapshot) {
                    onRollback(TransactionRecordDescriptor.decodeRollback(record.body()));
                }
            }
            default -> {
            }
        }
    }

    /**
     * A half or vote written after its transaction's decision (a send or prepare racing the
     * end) must not bring the transaction back: it stays invisible and holds nothing.
     */
    private boolean decided(long id) {
        return table.find(id, "").isEmpty() && table.decisions().of(id, "").isPresent();
    }

    private void onVote(TransactionRecordDescriptor.Vote vote) {
        Transaction t = table.getOrCreate(vote.transactionId());
        List<AckGroup> acks = AckGroup.held(vote.acks());
        t.prepared(vote.xid(), vote.coordinator(), acks, vote.owner());
        consumed.hold(acks);
    }

    private void onCommit(MessageRecordView record, TransactionRecordDescriptor.Commit commit,
                          ConsumeQueueWriter queues, boolean inSnapshot) {
        Set<String> woken = new HashSet<>();
        long lowest = Long.MAX_VALUE;
        for (TransactionRecordDescriptor.Slot slot : commit.slots()) {
            Half h = slot.half();
            queues.put(h.destination(), h.queueId(), slot.queueOffset(), h.physicalOffset(), h.size(),
                    h.tagSignature());
            woken.add(h.destination());
            lowest = Math.min(lowest, h.physicalOffset());
        }
        if (inSnapshot) {
            return;
        }
        for (Half h : commit.timers()) {
            delayed.onCommittedHalf(new DelayedMessages.Timer(h.physicalOffset(), h.deliveryTime(), h.destination(),
                    h.queueId(), h.bornTimestamp()));
            lowest = Math.min(lowest, h.physicalOffset());
        }
        consumed.acknowledge(AckGroup.held(commit.acks()));
        if (lowest != Long.MAX_VALUE) {
            table.committedHalves(record.physicalOffset(), lowest);
        }
        table.decided(commit.transactionId(), commit.xid(), TxState.COMMITTED);
        woken.forEach(heldPulls::wake);
    }

    private void onRollback(TransactionRecordDescriptor.Rollback rollback) {
        table.find(rollback.transactionId(), rollback.xid()).ifPresent(t -> consumed.release(t.preparedAcks()));
        table.decided(rollback.transactionId(), rollback.xid(), TxState.ROLLED_BACK);
    }
}
