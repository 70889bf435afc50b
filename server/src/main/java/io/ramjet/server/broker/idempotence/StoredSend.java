package io.ramjet.server.broker.idempotence;

/**
 * The last message stored from one idempotent producer.
 *
 * @param producerId     the producer
 * @param sequence       the message's sequence number from it
 * @param physicalOffset where its record starts in the CommitLog
 * @param size           its record's size, 0 when only its offset is known
 * @param queueOffset    its offset in its ConsumeQueue, -1 when it has none or it is not known
 * @param storeTimestamp when it was stored, epoch ms: the producer's last activity, for expiry
 */
public record StoredSend(long producerId, long sequence, long physicalOffset, int size, long queueOffset,
                         long storeTimestamp) {

    /** The CommitLog offset just past the record. */
    public long endOffset() {
        return physicalOffset + size;
    }
}
