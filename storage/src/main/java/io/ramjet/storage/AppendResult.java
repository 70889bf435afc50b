package io.ramjet.storage;

/**
 * Where an append put its record.
 *
 * @param physicalOffset the record's offset in the CommitLog
 * @param size           the record's total size in bytes
 * @param queueOffset    its logical offset in its ConsumeQueue, or -1 if it has none
 */
public record AppendResult(long physicalOffset, int size, long queueOffset) {

    /** The CommitLog offset just past the record. */
    public long endOffset() {
        return physicalOffset + size;
    }
}
