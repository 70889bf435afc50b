package io.ramjet.model.record;

/**
 * The flags word of a CommitLog record: the {@link RecordType} in the low byte, option bits above.
 */
public final class RecordFlags {

    public static final int TYPE_MASK = 0xFF;

    /** A NON_PERSISTENT message: stored, but its producer never waited for the disk. */
    public static final int NON_PERSISTENT = 1 << 8;

    /**
     * The record ends in a producer section (id and sequence, see {@link MessageRecordDescriptor}).
     * Set by {@link MessageRecord} itself from its producer id, never passed to {@link #of(RecordType, int)}.
     */
    public static final int PRODUCER = 1 << 9;

    /**
     * A large message: the body is a chunk table ({@link LargeBodyDescriptor}) naming the CHUNK
     * records that hold the body, not the body itself. Copies of the message (dead-letter, timer,
     * move) keep the bit and the table, so they share the chunks.
     */
    public static final int LARGE = 1 << 10;

    private static final int KNOWN_BITS = TYPE_MASK | NON_PERSISTENT | LARGE;

    private RecordFlags() {
    }

    public static int of(RecordType type) {
        return type.code();
    }

    public static int of(RecordType type, int bits) {
        if ((bits & ~(KNOWN_BITS & ~TYPE_MASK)) != 0) {
            throw new IllegalArgumentException("unknown flag bits " + Integer.toHexString(bits));
        }
        return type.code() | bits;
    }

    /** @throws IllegalArgumentException if the low byte names no type */
    public static RecordType type(int flags) {
        return RecordType.fromCode(flags & TYPE_MASK);
    }

    public static boolean isSet(int flags, int bit) {
        return (flags & bit) != 0;
    }
}
