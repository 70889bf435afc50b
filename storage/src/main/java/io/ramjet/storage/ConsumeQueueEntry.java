package io.ramjet.storage;

/**
 * One ConsumeQueue entry: where a message of a queue lies in the CommitLog.
 *
 * @param queueOffset     the entry's logical offset in its queue
 * @param physicalOffset  the record's CommitLog offset
 * @param size            the record's total size
 * @param tagSignature    the record's tag signature, for broker-side selector filtering
 */
public record ConsumeQueueEntry(long queueOffset, long physicalOffset, int size, long tagSignature) {
}
