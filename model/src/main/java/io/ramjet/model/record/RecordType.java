package io.ramjet.model.record;

/**
 * What a CommitLog record means, stored in the low byte of its flags. Acknowledgements,
 * transaction decisions, subscription changes and timer entries share the one log with messages.
 */
public enum RecordType {
    /** A message visible to consumers once dispatched to its ConsumeQueue. */
    NORMAL(0),
    /**
     * A half message of an open transaction: durable, dispatched only when a COMMIT names it. Its
     * queue-offset field holds the transaction id (see {@link MessageRecordDescriptor}).
     */
    PREPARED(1),
    /** A transaction's commit decision. */
    COMMIT(2),
    /** A transaction's rollback decision. */
    ROLLBACK(3),
    /** An acknowledgement of consumed messages. */
    ACK(4),
    /** A subscription created, changed or removed. */
    SUBSCRIPTION(5),
    /** A delayed message waiting in the timer store. */
    TIMER(6),
    /** A participant's prepared vote: the transaction's acknowledgements (and xid) wait for its decision. */
    VOTE(7),
    /**
     * One chunk of a large message's body, written before the message record that lists it (see
     * {@link LargeBodyDescriptor}); never in a ConsumeQueue. Its queue id holds the chunk's index
     * and its queue-offset field the upload id that the message record names.
     */
    CHUNK(8),
    /**
     * A part of a transaction's COMMIT or VOTE too large for one record: ConsumeQueue slots,
     * timers and acknowledgements that take effect only through the COMMIT or VOTE written after
     * it that names it; one named by none (a crash before its decision) is never applied.
     */
    TX_PART(9),
    /**
     * An idempotent producer's sequence fenced: the group did not store that message, and a copy of
     * it kept on another group is to be delivered, so a late resend of it here is a duplicate.
     * Carries the producer id and the fenced sequence; never in a ConsumeQueue.
     */
    FENCE(10);

    private static final RecordType[] BY_CODE = values();

    private final int code;

    RecordType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /**
     * Whether the record carries a new message (NORMAL, PREPARED, TIMER) or part of one (CHUNK), as opposed to a
     * control record (an acknowledgement, a decision, a subscription change) that lets
     * consumers drain the store: on a full disk the store refuses the former first.
     */
    public boolean carriesMessage() {
        return this == NORMAL || this == PREPARED || this == TIMER || this == CHUNK;
    }

    /** @throws IllegalArgumentException if {@code code} names no type */
    public static RecordType fromCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("unknown record type " + code);
        }
        return BY_CODE[code];
    }
}
