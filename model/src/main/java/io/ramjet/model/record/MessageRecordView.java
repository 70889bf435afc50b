package io.ramjet.model.record;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A read-only view of one record laid out by {@link MessageRecordDescriptor}, over a buffer
 * that holds exactly that record (a slice of a mapped segment, say). It copies nothing until
 * asked; {@link #properties()} and {@link #body()} are slices of the same memory.
 * Immutable once built, so it may be shared between threads.
 */
public final class MessageRecordView {

    private final ByteBuffer buffer;

    private MessageRecordView(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    /**
     * Wraps the record starting at position 0 of {@code buffer}, which must already have passed
     * {@link MessageRecordDescriptor#check}; the view is limited to the record's total size.
     */
    public static MessageRecordView wrap(ByteBuffer buffer) {
        int size = buffer.getInt(MessageRecordDescriptor.TOTAL_SIZE_OFFSET);
        return new MessageRecordView(buffer.slice(0, size).asReadOnlyBuffer());
    }

    /** The whole record, for sending or copying as is. */
    public ByteBuffer buffer() {
        return buffer.duplicate();
    }

    public int totalSize() {
        return buffer.getInt(MessageRecordDescriptor.TOTAL_SIZE_OFFSET);
    }

    public int crc() {
        return buffer.getInt(MessageRecordDescriptor.CRC_OFFSET);
    }

    public int flags() {
        return buffer.getInt(MessageRecordDescriptor.FLAGS_OFFSET);
    }

    public RecordType type() {
        return RecordFlags.type(flags());
    }

    public int queueId() {
        return buffer.getInt(MessageRecordDescriptor.QUEUE_ID_OFFSET);
    }

    public long queueOffset() {
        return buffer.getLong(MessageRecordDescriptor.QUEUE_OFFSET_OFFSET);
    }

    public long physicalOffset() {
        return buffer.getLong(MessageRecordDescriptor.PHYSICAL_OFFSET_OFFSET);
    }

    public long bornTimestamp() {
        return buffer.getLong(MessageRecordDescriptor.BORN_TIMESTAMP_OFFSET);
    }

    public long storeTimestamp() {
        return buffer.getLong(MessageRecordDescriptor.STORE_TIMESTAMP_OFFSET);
    }

    public long deliveryTime() {
        return buffer.getLong(MessageRecordDescriptor.DELIVERY_TIME_OFFSET);
    }

    public long tagSignature() {
        return buffer.getLong(MessageRecordDescriptor.TAG_SIGNATURE_OFFSET);
    }

    public String destination() {
        byte[] bytes = new byte[destinationLength()];
        buffer.get(MessageRecordDescriptor.DESTINATION_OFFSET, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public ByteBuffer properties() {
        int at = MessageRecordDescriptor.propertiesLengthOffset(destinationLength());
        return buffer.slice(at + 4, buffer.getInt(at));
    }

    public ByteBuffer body() {
        int at = MessageRecordDescriptor.bodyLengthOffset(destinationLength(), propertiesLength());
        return buffer.slice(at + 4, buffer.getInt(at));
    }

    /** Whether the record names the idempotent producer that sent it. */
    public boolean hasProducer() {
        return RecordFlags.isSet(flags(), RecordFlags.PRODUCER);
    }

    /** The idempotent producer that sent the message, 0 for none. */
    public long producerId() {
        return hasProducer() ? buffer.getLong(producerOffset()) : 0;
    }

    /** The message's sequence number from {@link #producerId()}, 0 for none. */
    public long sequence() {
        return hasProducer() ? buffer.getLong(producerOffset() + 8) : 0;
    }

    /** Copies the writer's fields out into a value. */
    public MessageRecord toRecord() {
        return new MessageRecord(flags(), destination(), queueId(), queueOffset(), bornTimestamp(),
                deliveryTime(), tagSignature(), bytes(properties()), bytes(body()), producerId(), sequence());
    }

    private int producerOffset() {
        int at = MessageRecordDescriptor.bodyLengthOffset(destinationLength(), propertiesLength());
        return at + 4 + buffer.getInt(at);
    }

    private int destinationLength() {
        return buffer.getShort(MessageRecordDescriptor.DESTINATION_LENGTH_OFFSET);
    }

    private int propertiesLength() {
        return buffer.getInt(MessageRecordDescriptor.propertiesLengthOffset(destinationLength()));
    }

    private static byte[] bytes(ByteBuffer slice) {
        byte[] bytes = new byte[slice.remaining()];
        slice.get(0, bytes);
        return bytes;
    }

    @Override
    public String toString() {
        return "MessageRecordView[" + type() + " " + destination() + "/" + queueId() + " @"
                + physicalOffset() + " size " + totalSize() + "]";
    }
}
