package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.record.TransactionRecordDescriptor;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.storage.ConsumeQueueWriter;
import io.ramjet.storage.LogReader;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies transaction records as the dispatcher passes them, live and while the store recovers:
 * a PREPARED record adds a half to its transaction, a VOTE prepares it and holds what it
 * consumed, a COMMIT puts the ConsumeQueue entries its slots reserved (pointing at the half
 * records), hands delayed halves to the timer store, acknowledges what the transaction consumed
 * and forgets it, a ROLLBACK releases what it held and forgets it. A COMMIT or VOTE that names
 * TX_PART records (a decision too large for one record) reads them back from the log and
 * applies them with its own sections in the same call; a TX_PART itself changes nothing, so parts
 * whose decision never made it to the log (a crash during the chain) are never applied. The
 * parts lie before their decision and stay retained as long as it may be replayed (the table
 * keeps the log from a transaction's first half or first part on, for an open or prepared
 * transaction and for a COMMIT above the checkpoint).
 * The processors only write
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
    private volatile LogReader log;

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

    /** Where the TX_PART records a decision names are read back; given before the first record. */
    public void readsFrom(LogReader reader) {
        log = reader;
    }

    /** Recovery is over. */
    void finishReplay() {
        replaying = false;
    }

    /** Whether this record type is one of the transaction's. */
    public static boolean handles(RecordType type) {
        return type == RecordType.PREPARED || type == RecordType.VOTE || type == RecordType.COMMIT
                || type == RecordType.ROLLBACK || type == RecordType.TX_PART;
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
        List<AckGroup> acks = new ArrayList<>(AckGroup.held(vote.acks()));
        for (long at : vote.parts()) {
            acks.addAll(AckGroup.held(part(at, vote.transactionId()).acks()));
            t.voteParts(at);
        }
        t.prepared(vote.xid(), vote.coordinator(), acks, vote.owner());
        consumed.hold(acks);
    }

    private void onCommit(MessageRecordView record, TransactionRecordDescriptor.Commit commit,
                          ConsumeQueueWriter queues, boolean inSnapshot) {
        Set<String> woken = new HashSet<>();
        long lowest = Long.MAX_VALUE;
        for (long at : commit.parts()) {
            lowest = Math.min(lowest, at);
            lowest = Math.min(lowest, apply(part(at, commit.transactionId()), queues, inSnapshot, woken));
        }
        lowest = Math.min(lowest, apply(commit.sections(), queues, inSnapshot, woken));
        if (inSnapshot) {
            return;
        }
        if (lowest != Long.MAX_VALUE) {
            table.committedHalves(record.physicalOffset(), lowest);
        }
        table.decided(commit.transactionId(), commit.xid(), TxState.COMMITTED);
        woken.forEach(heldPulls::wake);
    }

    /**
     * Puts the slots' entries and, unless {@code inSnapshot}, hands the timers over and
     * acknowledges; returns the lowest half offset named (Long.MAX_VALUE for none).
     */
    private long apply(TransactionRecordDescriptor.Sections sections, ConsumeQueueWriter queues, boolean inSnapshot,
                       Set<String> woken) {
        long lowest = Long.MAX_VALUE;
        for (TransactionRecordDescriptor.Slot slot : sections.slots()) {
            Half h = slot.half();
            queues.put(h.destination(), h.queueId(), slot.queueOffset(), h.physicalOffset(), h.size(),
                    h.tagSignature());
            woken.add(h.destination());
            lowest = Math.min(lowest, h.physicalOffset());
        }
        if (inSnapshot) {
            return lowest;
        }
        for (Half h : sections.timers()) {
            delayed.onCommittedHalf(new DelayedMessages.Timer(h.physicalOffset(), h.deliveryTime(), h.destination(),
                    h.queueId(), h.bornTimestamp()));
            lowest = Math.min(lowest, h.physicalOffset());
        }
        consumed.acknowledge(AckGroup.held(sections.acks()));
        return lowest;
    }

    /**
     * The sections of the TX_PART at {@code at}, which a decision of transaction {@code id} names.
     *
     * @throws IllegalStateException if no TX_PART of that transaction lies there (a damaged log)
     */
    private TransactionRecordDescriptor.Sections part(long at, long id) {
        MessageRecordView view = log.read(at);
        if (view.type() != RecordType.TX_PART) {
            throw new IllegalStateException("transaction " + id + " names a part at " + at + " that is a " + view.type());
        }
        TransactionRecordDescriptor.Part part = TransactionRecordDescriptor.decodePart(view.body());
        if (part.transactionId() != id) {
            throw new IllegalStateException("transaction " + id + " names a part at " + at + " of transaction "
                    + part.transactionId());
        }
        return part.sections();
    }

    private void onRollback(TransactionRecordDescriptor.Rollback rollback) {
        table.find(rollback.transactionId(), rollback.xid()).ifPresent(t -> consumed.release(t.preparedAcks()));
        table.decided(rollback.transactionId(), rollback.xid(), TxState.ROLLED_BACK);
    }
}
