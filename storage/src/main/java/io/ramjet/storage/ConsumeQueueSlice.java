package io.ramjet.storage;

/**
 * A reusable holder for consecutive ConsumeQueue entries, filled by
 * {@link MessageStore#readQueue(String, int, long, ConsumeQueueSlice)}: a scan reads a slice of
 * entries in bulk and tests their tag signatures in place, with no object per entry. Holds the
 * entries {@code [from(), end())}; its capacity is fixed at construction.
 *
 * <p>Not thread-safe: one scan owns it.
 */
public final class ConsumeQueueSlice {

    private final long[] physicalOffsets;
    private final int[] sizes;
    private final long[] tagSignatures;
    private long from;
    private int count;

    /** @param capacity the most entries one fill reads */
    public ConsumeQueueSlice(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        physicalOffsets = new long[capacity];
        sizes = new int[capacity];
        tagSignatures = new long[capacity];
    }

    /** The queue offset of the first entry held. */
    public long from() {
        return from;
    }

    /** One past the queue offset of the last entry held: {@link #from()} when empty. */
    public long end() {
        return from + count;
    }

    /** Whether the entry at queue offset {@code offset} is held. */
    public boolean holds(long offset) {
        return offset >= from && offset < from + count;
    }

    /** The CommitLog offset of the record of the held entry at queue offset {@code offset}. */
    public long physicalOffset(long offset) {
        return physicalOffsets[index(offset)];
    }

    /** The size of the record of the held entry at queue offset {@code offset}. */
    public int size(long offset) {
        return sizes[index(offset)];
    }

    /** The tag signature of the held entry at queue offset {@code offset}. */
    public long tagSignature(long offset) {
        return tagSignatures[index(offset)];
    }

    /** Empties the slice, at {@code offset}. */
    void clear(long offset) {
        from = offset;
        count = 0;
    }

    int capacity() {
        return sizes.length;
    }

    int count() {
        return count;
    }

    void add(long physicalOffset, int size, long tagSignature) {
        physicalOffsets[count] = physicalOffset;
        sizes[count] = size;
        tagSignatures[count++] = tagSignature;
    }

    private int index(long offset) {
        if (!holds(offset)) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside [" + from + ", " + end() + ")");
        }
        return (int) (offset - from);
    }
}
