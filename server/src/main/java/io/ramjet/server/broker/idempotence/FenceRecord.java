package io.ramjet.server.broker.idempotence;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;

import java.nio.ByteBuffer;

/**
 * Layout of a FENCE record: the producer id and the fenced sequence in the record's producer
 * fields, on the broker's own destination {@link #DESTINATION}, no properties, and the body:
 *
 * <pre>
 *  held up to (long, big-endian): the producer's highest sequence stored here as a message
 * </pre>
 */
public final class FenceRecord {

    public static final String DESTINATION = "$ramjet.fence";
    private static final int BODY_LENGTH = 8;

    private FenceRecord() {
    }

    public static MessageRecord of(long producerId, long sequence, long heldUpTo, long now) {
        byte[] body = ByteBuffer.allocate(BODY_LENGTH).putLong(heldUpTo).array();
        return new MessageRecord(RecordFlags.of(RecordType.FENCE), DESTINATION, 0, -1, now, 0, 0, new byte[0], body,
                producerId, sequence);
    }

    /** The producer's highest sequence stored as a message, from a FENCE record. */
    public static long heldUpTo(MessageRecordView record) {
        ByteBuffer body = record.body();
        if (body.remaining() != BODY_LENGTH) {
            throw new IllegalArgumentException("fence record of " + body.remaining() + " body bytes");
        }
        return body.getLong(body.position());
    }
}
