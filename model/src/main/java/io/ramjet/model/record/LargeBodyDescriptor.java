package io.ramjet.model.record;

import java.nio.ByteBuffer;

/**
 * Layout of a large message's chunk table: the body of a message record flagged
 * {@link RecordFlags#LARGE}. The body itself lies in CHUNK records ({@link RecordType#CHUNK})
 * written before the message record, in the same CommitLog. All integers are big-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                          MAGIC                                |  0
 *  +---------------------------------------------------------------+
 *  |              flags: DEFLATED when the chunks are compressed   |  4
 *  +---------------------------------------------------------------+
 *  |                     upload id (long)                          |  8
 *  +---------------------------------------------------------------+
 *  |        body length as the application reads it (long)         | 16
 *  +---------------------------------------------------------------+
 *  |        stored length: the chunks' bytes together (long)       | 24
 *  +---------------------------------------------------------------+
 *  |                       chunk count                             | 32
 *  +---------------------------------------------------------------+
 *  |   CommitLog offset of each chunk record, in body order (long) | 36
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>the upload id is a random number the sending client chose; each chunk record carries it
 *       in its queue-offset field and its index in its queue-id field, so the broker checks that
 *       a table names only chunks of its own upload, and serves a chunk only to a client that
 *       names its upload id (which only a reader of the message record learns);</li>
 *   <li>every chunk is appended before the message record, so the lowest chunk offset is the
 *       lowest CommitLog offset the message needs; chunks written at once may be stored out of
 *       index order, so the offsets need not ascend.</li>
 * </ul>
 */
public final class LargeBodyDescriptor {

    public static final int MAGIC = 0xAA1E_1A26;
    /** The chunks hold the body deflated (java.util.zip, no wrapper). */
    public static final int DEFLATED = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int FLAGS_OFFSET = 4;
    public static final int UPLOAD_ID_OFFSET = 8;
    public static final int BODY_LENGTH_OFFSET = 16;
    public static final int STORED_LENGTH_OFFSET = 24;
    public static final int CHUNK_COUNT_OFFSET = 32;
    public static final int CHUNKS_OFFSET = 36;

    private LargeBodyDescriptor() {
    }

    /** A decoded chunk table. */
    public record Table(int flags, long uploadId, long bodyLength, long storedLength, long[] chunkOffsets) {

        public boolean deflated() {
            return (flags & DEFLATED) != 0;
        }

        /** The lowest CommitLog offset the message needs: its lowest chunk's. */
        public long firstOffset() {
            long first = Long.MAX_VALUE;
            for (long offset : chunkOffsets) {
                first = Math.min(first, offset);
            }
            return first;
        }
    }

    public static int length(int chunkCount) {
        return CHUNKS_OFFSET + 8 * chunkCount;
    }

    public static byte[] encode(Table table) {
        ByteBuffer b = ByteBuffer.allocate(length(table.chunkOffsets().length));
        b.putInt(MAGIC).putInt(table.flags()).putLong(table.uploadId()).putLong(table.bodyLength())
                .putLong(table.storedLength()).putInt(table.chunkOffsets().length);
        for (long offset : table.chunkOffsets()) {
            b.putLong(offset);
        }
        return b.array();
    }

    /**
     * Decodes the table from {@code body}'s position to its limit, position untouched.
     *
     * @throws IllegalArgumentException if it is not a well-formed table (a wrong magic, a length
     *                                  that disagrees with the count, no chunk, a negative offset)
     */
    public static Table decode(ByteBuffer body) {
        ByteBuffer b = body.duplicate();
        int at = b.position();
        if (b.remaining() < CHUNKS_OFFSET || b.getInt(at + MAGIC_OFFSET) != MAGIC) {
            throw new IllegalArgumentException("not a large message's chunk table");
        }
        int count = b.getInt(at + CHUNK_COUNT_OFFSET);
        if (count < 1 || (long) CHUNKS_OFFSET + 8L * count != b.remaining()) {
            throw new IllegalArgumentException("chunk table of " + b.remaining() + " bytes for " + count + " chunks");
        }
        long bodyLength = b.getLong(at + BODY_LENGTH_OFFSET);
        long storedLength = b.getLong(at + STORED_LENGTH_OFFSET);
        if (bodyLength < 0 || storedLength < 0) {
            throw new IllegalArgumentException("chunk table lengths " + bodyLength + ", " + storedLength);
        }
        long[] offsets = new long[count];
        for (int i = 0; i < count; i++) {
            offsets[i] = b.getLong(at + CHUNKS_OFFSET + 8 * i);
            if (offsets[i] < 0) {
                throw new IllegalArgumentException("chunk " + i + " at offset " + offsets[i]);
            }
        }
        return new Table(b.getInt(at + FLAGS_OFFSET), b.getLong(at + UPLOAD_ID_OFFSET), bodyLength, storedLength,
                offsets);
    }
}
