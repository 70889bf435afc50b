package io.ramjet.storage;

/**
 * Layout of the checkpoint file. Big-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                             magic                             |  0
 *  +---------------------------------------------------------------+
 *  |                            version                            |  4
 *  +---------------------------------------------------------------+
 *  |                 recovery offset (long)                        |  8
 *  +---------------------------------------------------------------+
 *  |                 written at, epoch ms (long)                   | 16
 *  +---------------------------------------------------------------+
 *  |                 CRC32C of bytes [0, 24)                       | 24
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The recovery offset is a CommitLog record boundary below which every record, its ConsumeQueue
 * entry and every dispatch listener's state were durable when the checkpoint was written.
 */
public final class CheckpointDescriptor {

    public static final int MAGIC = 0xAA1E_C0C0;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int RECOVERY_OFFSET_OFFSET = 8;
    public static final int TIMESTAMP_OFFSET = 16;
    public static final int CRC_OFFSET = 24;
    public static final int LENGTH = 28;

    private CheckpointDescriptor() {
    }
}
