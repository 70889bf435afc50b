package io.ramjet.storage;

/**
 * Layout of a ConsumeQueue entry and file. Big-endian; the entry for logical offset {@code n}
 * lies at byte {@code (n - first offset of its file) * LENGTH} of the file whose name (20
 * digits) is the greatest first offset not above {@code n}. A file holds
 * {@code size / LENGTH} entries: a queue's files grow from {@link #FIRST_FILE_ENTRIES} entries,
 * each next one twice the last, up to the configured maximum ({@link #nextFileEntries}); any
 * sizes load, so changing the maximum needs no conversion.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 CommitLog offset of the record (long)         |  0
 *  +---------------------------------------------------------------+
 *  |                 record size (int), 0 = no entry               |  8
 *  +---------------------------------------------------------------+
 *  |                     tag signature (long)                      | 12
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The size is written last: an entry with a size of 0 has not been written. Entries are not
 * checksummed; after a crash, entries past the checkpoint are cut and rebuilt from the CommitLog.
 */
public final class ConsumeQueueEntryDescriptor {

    public static final int PHYSICAL_OFFSET_OFFSET = 0;
    public static final int SIZE_OFFSET = 8;
    public static final int TAG_SIGNATURE_OFFSET = 12;
    public static final int LENGTH = 20;
    /** Entries in a queue's first file: 20 KiB, so an idle queue costs little disk. */
    public static final int FIRST_FILE_ENTRIES = 1024;

    private ConsumeQueueEntryDescriptor() {
    }

    /**
     * Entries of the file that follows one of {@code previousEntries} (0 for a queue's first
     * file): twice as many, at least {@link #FIRST_FILE_ENTRIES}, at most {@code maxEntries}.
     */
    public static int nextFileEntries(int previousEntries, int maxEntries) {
        long doubled = Math.max(FIRST_FILE_ENTRIES, 2L * previousEntries);
        return (int) Math.min(doubled, Math.max(1, maxEntries));
    }

    /** Byte position of entry {@code index} within its file. */
    public static int position(int index) {
        return index * LENGTH;
    }
}
