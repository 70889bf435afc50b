package io.ramjet.model.record;

/** The verdict of {@link MessageRecordDescriptor#check} on the bytes at one offset. */
public enum RecordStatus {
    /** A complete record whose checksum matches. */
    VALID,
    /** A padding record filling the end of a segment. */
    BLANK,
    /** Zeros where a size and magic would be: nothing was ever written here. */
    EMPTY,
    /** The magic is neither a record's nor a blank's: not a record boundary, or overwritten. */
    BAD_MAGIC,
    /** The size is too small, or runs past the bytes available. */
    BAD_SIZE,
    /** The section lengths do not add up to the size. */
    BAD_LAYOUT,
    /** The CRC32C does not match: a torn or corrupted record. */
    BAD_CHECKSUM;

    public boolean isRecord() {
        return this == VALID;
    }
}
