package io.ramjet.server.broker.idempotence;

/**
 * The last message stored from one idempotent producer, or the fence that raised its sequence.
 *
 * @param producerId     the producer
 * @param sequence       the message's sequence number from it (a fence's: the sequence fenced)
 * @param physicalOffset where its record starts in the CommitLog
 * @param size           its record's size, 0 when only its offset is known
 * @param queueOffset    its offset in its ConsumeQueue, -1 when it has none or it is not known
 * @param storeTimestamp when it was stored, epoch ms: the producer's last activity, for expiry
 * @param heldUpTo       the producer's highest sequence this broker stored as a message: {@code sequence}
 *                       for a message, below it for a fence (the sequences above it were fenced, not stored)
 */
public record StoredSend(long producerId, long sequence, long physicalOffset, int size, long queueOffset,
                         long storeTimestamp, long heldUpTo) {

    /** A stored message. */
    public StoredSend(long producerId, long sequence, long physicalOffset, int size, long queueOffset,
                      long storeTimestamp) {
        this(producerId, sequence, physicalOffset, size, queueOffset, storeTimestamp, sequence);
    }

    /** The CommitLog offset just past the record. */
    public long endOffset() {
        return physicalOffset + size;
    }

    /** A fence, not a message: the sequences above {@link #heldUpTo} up to {@link #sequence} were never stored. */
    public boolean fence() {
        return heldUpTo < sequence;
    }
}
