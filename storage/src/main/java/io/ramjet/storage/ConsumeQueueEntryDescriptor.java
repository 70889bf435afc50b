package io.ramjet.storage;

/**
 * Layout of a ConsumeQueue entry. Big-endian; the entry for logical offset {@code n} lies at
 * byte {@code (n - first offset of its file) * LENGTH} of its file.
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

    private ConsumeQueueEntryDescriptor() {
    }

    /** Byte position of entry {@code index} within its file. */
    public static int position(int index) {
        return index * LENGTH;
    }
}
