package io.ramjet.model.record;

import java.util.Objects;

/**
 * The fields of a record that its writer chooses; the store adds the physical offset and the
 * store timestamp when it appends, and the queue offset for {@link RecordType#NORMAL} records.
 * The arrays are not copied: the caller must not change them after handing the record over.
 *
 * @param flags        type and option bits, see {@link RecordFlags}
 * @param destination  the broker-side destination name
 * @param queueId      the message queue within the destination
 * @param queueOffset  logical offset in the ConsumeQueue, or -1 when the store assigns it
 * @param bornTimestamp when the producer created the message, epoch ms
 * @param deliveryTime earliest delivery, epoch ms, 0 for none
 * @param tagSignature the selector signature of the message's tags
 * @param properties   an encoded header and property section, opaque to the store
 * @param body         the message body
 * @param producerId   the idempotent producer that sent it, 0 for none; {@link RecordFlags#PRODUCER}
 *                     is set in {@code flags} exactly when it is not 0
 * @param sequence     the message's sequence number from that producer, 0 when it has none
 */
public record MessageRecord(int flags, String destination, int queueId, long queueOffset,
                            long bornTimestamp, long deliveryTime, long tagSignature,
                            byte[] properties, byte[] body, long producerId, long sequence) {

    public MessageRecord {
        RecordFlags.type(flags);
        flags = producerId != 0 ? flags | RecordFlags.PRODUCER : flags & ~RecordFlags.PRODUCER;
        if (producerId == 0 && sequence != 0) {
            throw new IllegalArgumentException("sequence " + sequence + " without a producer");
        }
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(body, "body");
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId " + queueId);
        }
    }

    /** A record from no idempotent producer. */
    public MessageRecord(int flags, String destination, int queueId, long queueOffset, long bornTimestamp,
                         long deliveryTime, long tagSignature, byte[] properties, byte[] body) {
        this(flags, destination, queueId, queueOffset, bornTimestamp, deliveryTime, tagSignature, properties, body,
                0, 0);
    }

    /** A NORMAL message whose queue offset the store assigns. */
    public static MessageRecord message(String destination, int queueId, long tagSignature,
                                        byte[] properties, byte[] body) {
        return new MessageRecord(RecordFlags.of(RecordType.NORMAL), destination, queueId, -1,
                System.currentTimeMillis(), 0, tagSignature, properties, body);
    }

    public RecordType type() {
        return RecordFlags.type(flags);
    }

    public MessageRecord withQueueOffset(long offset) {
        return new MessageRecord(flags, destination, queueId, offset, bornTimestamp, deliveryTime,
                tagSignature, properties, body, producerId, sequence);
    }

    /** Whether the record ends in a producer section. */
    public boolean hasProducer() {
        return producerId != 0;
    }
}
