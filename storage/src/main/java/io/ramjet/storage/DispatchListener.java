package io.ramjet.storage;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;

/**
 * Receives every record of the CommitLog once it is written, in log order, one at a time: on
 * the store's dispatcher thread, or on an {@link AppendLane}'s thread right after its batch's
 * force, never on two threads at once. After an abnormal stop,
 * records after the last checkpoint are given again during recovery, before the store opens: a
 * listener must be idempotent for them, or persist its own state in {@link #beforeCheckpoint}. A
 * listener that throws a {@link StoreException} (other than a {@link RecordReadException}) stalls
 * dispatch: the same record is given again, after a backoff, until it goes through, so it must be
 * idempotent for a retry too. Any other exception is logged and the record is passed over.
 *
 * <p>The broker's listener delegates NORMAL records to {@link #normalMessages()} and sees PREPARED,
 * COMMIT, ACK and the other record types itself, deciding what else to put in the queues.
 */
public interface DispatchListener {

    /**
     * @param record a view valid as long as the store is open; copy what must outlive it
     * @param queues where to put ConsumeQueue entries
     */
    void onRecord(MessageRecordView record, ConsumeQueueWriter queues);

    /**
     * Called once when the store opens, before recovery gives any record: where the listener may
     * read back records it was given before (the parts a {@link RecordChain}'s last record
     * names), for as long as the store is open. A record found there may lie below the
     * checkpoint recovery starts from.
     */
    default void readsFrom(LogReader log) {
    }

    /**
     * Called on the checkpoint thread before a checkpoint at {@code offset} is written: state
     * derived from records below {@code offset} must be durable when this returns.
     */
    default void beforeCheckpoint(long offset) {
    }

    /** Puts each NORMAL record in its ConsumeQueue at its queue offset; ignores the rest. */
    static DispatchListener normalMessages() {
        return (record, queues) -> {
            if (record.type() == RecordType.NORMAL) {
                queues.put(record.destination(), record.queueId(), record.queueOffset(),
                        record.physicalOffset(), record.totalSize(), record.tagSignature());
            }
        };
    }
}
