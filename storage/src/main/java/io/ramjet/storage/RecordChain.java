package io.ramjet.storage;

import io.ramjet.model.record.MessageRecord;

/**
 * A run of records that {@link MessageStore#appendChain} appends back to back under one hold of
 * its append lock, after reserving ConsumeQueue offsets for the whole run: a decision too large
 * for one record (a transaction's COMMIT with a million slots), written as parts followed by the
 * one record that names them.
 *
 * <p>The rule that makes a chain atomic: its parts change nothing when dispatched; only its last
 * record does, reading its parts back through the {@link LogReader} the store gives the
 * {@link DispatchListener}. A crash (or a failed append) that leaves parts without their last
 * record leaves nothing but unread bytes: the reserved offsets were never put, so the store gives
 * them out again. Since no other record can take an offset between the reservation and the last
 * record, the entries the last record puts are the next of their queues, in log order.
 */
@FunctionalInterface
public interface RecordChain {

    /**
     * Appends the chain's records through {@code out}, the record that decides last; the store
     * checks each against the maximum record size and the room for messages.
     *
     * @param queueOffsets the reserved offsets, in the order of the slots asked for
     */
    void write(long[] queueOffsets, Appender out);

    /** Appends the records of one chain. */
    @FunctionalInterface
    interface Appender {

        /** Appends {@code record} after the chain's previous one; returns its CommitLog offset. */
        long append(MessageRecord record);
    }
}
