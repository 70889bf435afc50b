package io.ramjet.storage;

/** A read asked for something that is not an intact record; {@link #reason()} says why. */
public class RecordReadException extends StoreException {

    public enum Reason {
        /** The offset lies below the oldest retained segment or queue file. */
        BELOW_RETAINED,
        /** The offset is at or past the end of what has been written. */
        PAST_END,
        /** No record starts at the offset: it falls inside a record or on padding. */
        NOT_A_RECORD,
        /** A record starts there but fails its checksum or layout check. */
        CORRUPT
    }

    private final Reason reason;
    private final long offset;

    public RecordReadException(Reason reason, long offset, String detail) {
        super(reason + " at offset " + offset + ": " + detail);
        this.reason = reason;
        this.offset = offset;
    }

    public Reason reason() {
        return reason;
    }

    public long offset() {
        return offset;
    }
}
