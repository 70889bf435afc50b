package io.ramjet.model.record;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Layout of a CommitLog record. All integers are big-endian; offsets are from the record start.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 total size, this field included               |  0
 *  +---------------------------------------------------------------+
 *  |                     magic: MAGIC or BLANK_MAGIC               |  4
 *  +---------------------------------------------------------------+
 *  |     CRC32C of bytes [0, 8) and [12, total size)               |  8
 *  +---------------------------------------------------------------+
 *  |     flags: record type in the low byte, option bits above     | 12
 *  +---------------------------------------------------------------+
 *  |                           queue id                            | 16
 *  +---------------------------------------------------------------+
 *  |                     queue offset (long)                       | 20
 *  +---------------------------------------------------------------+
 *  |                    physical offset (long)                     | 28
 *  +---------------------------------------------------------------+
 *  |                   born timestamp, epoch ms (long)             | 36
 *  +---------------------------------------------------------------+
 *  |                   store timestamp, epoch ms (long)            | 44
 *  +---------------------------------------------------------------+
 *  |                   delivery time, epoch ms (long)              | 52
 *  +---------------------------------------------------------------+
 *  |                     tag signature (long)                      | 60
 *  +-------------------------------+-------------------------------+
 *  |  destination length (short)   |  destination, UTF-8 ...       | 68
 *  +-------------------------------+-------------------------------+
 *  |  properties length (int), then properties bytes ...           |
 *  +---------------------------------------------------------------+
 *  |  body length (int), then body bytes ...                       |
 *  +---------------------------------------------------------------+
 *  |  producer id (long), only with the PRODUCER flag              |
 *  +---------------------------------------------------------------+
 *  |  producer sequence (long), only with the PRODUCER flag        |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>the physical offset is the record's own position in the log, so a record copied or
 *       read at the wrong place is detectable;</li>
 *   <li>the queue offset is the record's logical offset in its ConsumeQueue for a NORMAL record
 *       and -1 for the types no ConsumeQueue holds, except PREPARED: a half record is never in a
 *       queue under its own offset (the COMMIT record that makes it visible reserves the
 *       offsets), so the field holds its transaction id;</li>
 *   <li>the properties section is opaque here: an encoded JMS header and property section;</li>
 *   <li>a blank record is only a total size and {@link #BLANK_MAGIC}: it pads the end of a
 *       segment so no record spans two, and is at least {@link #BLANK_LENGTH} bytes;</li>
 *   <li>the producer section ({@link RecordFlags#PRODUCER}) names the idempotent producer that
 *       sent the message and its sequence number, so every broker that dispatches the record
 *       (a recovering one, a slave) learns what that producer has stored. It is the last field,
 *       so a record without it is laid out exactly as before the section existed: logs written
 *       then read as they are;</li>
 *   <li>{@link #encode} writes the total size last, so a reader that sees a size sees a record.</li>
 * </ul>
 */
public final class MessageRecordDescriptor {

    public static final int MAGIC = 0xAA1E_0001;
    public static final int BLANK_MAGIC = 0xAA1E_B1A4;

    public static final int TOTAL_SIZE_OFFSET = 0;
    public static final int MAGIC_OFFSET = 4;
    public static final int CRC_OFFSET = 8;
    public static final int FLAGS_OFFSET = 12;
    public static final int QUEUE_ID_OFFSET = 16;
    public static final int QUEUE_OFFSET_OFFSET = 20;
    public static final int PHYSICAL_OFFSET_OFFSET = 28;
    public static final int BORN_TIMESTAMP_OFFSET = 36;
    public static final int STORE_TIMESTAMP_OFFSET = 44;
    public static final int DELIVERY_TIME_OFFSET = 52;
    public static final int TAG_SIGNATURE_OFFSET = 60;
    public static final int DESTINATION_LENGTH_OFFSET = 68;
    public static final int DESTINATION_OFFSET = 70;

    /** Size of a blank record, and the least space a segment may have left after a record. */
    public static final int BLANK_LENGTH = 8;

    /** Size of a record with an empty destination, properties and body. */
    public static final int MIN_LENGTH = DESTINATION_OFFSET + 4 + 4;

    public static final int MAX_DESTINATION_LENGTH = Short.MAX_VALUE;

    /** Size of the producer section: producer id and sequence. */
    public static final int PRODUCER_SECTION_LENGTH = 16;

    private MessageRecordDescriptor() {
    }

    public static int propertiesLengthOffset(int destinationLength) {
        return DESTINATION_OFFSET + destinationLength;
    }

    public static int propertiesOffset(int destinationLength) {
        return propertiesLengthOffset(destinationLength) + 4;
    }

    public static int bodyLengthOffset(int destinationLength, int propertiesLength) {
        return propertiesOffset(destinationLength) + propertiesLength;
    }

    public static int bodyOffset(int destinationLength, int propertiesLength) {
        return bodyLengthOffset(destinationLength, propertiesLength) + 4;
    }

    /** Offset of the producer section, where a record without one ends. */
    public static int producerOffset(int destinationLength, int propertiesLength, int bodyLength) {
        return bodyOffset(destinationLength, propertiesLength) + bodyLength;
    }

    /** Length of a record without a producer section. */
    public static int recordLength(int destinationLength, int propertiesLength, int bodyLength) {
        return recordLength(destinationLength, propertiesLength, bodyLength, false);
    }

    public static int recordLength(int destinationLength, int propertiesLength, int bodyLength,
                                   boolean producer) {
        long length = (long) MIN_LENGTH + destinationLength + propertiesLength + bodyLength
                + (producer ? PRODUCER_SECTION_LENGTH : 0);
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("record of " + length + " bytes");
        }
        return (int) length;
    }

    public static int recordLength(MessageRecord record) {
        return recordLength(record, record.body().length);
    }

    /** The length of {@code record} with a body of {@code bodyLength} bytes in place of its own. */
    public static int recordLength(MessageRecord record, int bodyLength) {
        return recordLength(destinationBytes(record).length, record.properties().length, bodyLength,
                record.hasProducer());
    }

    /**
     * Writes {@code record} at {@code index} of {@code buffer}, without moving its position.
     *
     * @return the record's total size
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static int encode(ByteBuffer buffer, int index, MessageRecord record,
                             long physicalOffset, long storeTimestamp) {
        return encode(buffer, index, record, ByteBuffer.wrap(record.body()), physicalOffset, storeTimestamp);
    }

    /**
     * Writes {@code record} with the remaining bytes of {@code body} in place of its own body, at
     * {@code index} of {@code buffer}, moving neither buffer's position: a body held outside the
     * heap (a slice of a received frame) is copied once, into {@code buffer}.
     *
     * @return the record's total size
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static int encode(ByteBuffer buffer, int index, MessageRecord record, ByteBuffer body,
                             long physicalOffset, long storeTimestamp) {
        byte[] destination = destinationBytes(record);
        byte[] properties = record.properties();
        int bodyLength = body.remaining();
        int size = recordLength(destination.length, properties.length, bodyLength, record.hasProducer());
        if (index < 0 || size > buffer.limit() - index) {
            throw new IndexOutOfBoundsException("record of " + size + " bytes at " + index
                    + " in a buffer of " + buffer.limit());
        }
        buffer.putInt(index + MAGIC_OFFSET, MAGIC);
        buffer.putInt(index + FLAGS_OFFSET, record.flags());
        buffer.putInt(index + QUEUE_ID_OFFSET, record.queueId());
        buffer.putLong(index + QUEUE_OFFSET_OFFSET, record.queueOffset());
        buffer.putLong(index + PHYSICAL_OFFSET_OFFSET, physicalOffset);
        buffer.putLong(index + BORN_TIMESTAMP_OFFSET, record.bornTimestamp());
        buffer.putLong(index + STORE_TIMESTAMP_OFFSET, storeTimestamp);
        buffer.putLong(index + DELIVERY_TIME_OFFSET, record.deliveryTime());
        buffer.putLong(index + TAG_SIGNATURE_OFFSET, record.tagSignature());
        buffer.putShort(index + DESTINATION_LENGTH_OFFSET, (short) destination.length);
        buffer.put(index + DESTINATION_OFFSET, destination);
        int at = index + propertiesLengthOffset(destination.length);
        buffer.putInt(at, properties.length);
        buffer.put(at + 4, properties);
        at = index + bodyLengthOffset(destination.length, properties.length);
        buffer.putInt(at, bodyLength);
        buffer.put(at + 4, body, body.position(), bodyLength);
        if (record.hasProducer()) {
            at = index + producerOffset(destination.length, properties.length, bodyLength);
            buffer.putLong(at, record.producerId());
            buffer.putLong(at + 8, record.sequence());
        }
        buffer.putInt(index + TOTAL_SIZE_OFFSET, size);
        buffer.putInt(index + CRC_OFFSET, checksum(buffer, index, size));
        return size;
    }

    /** Writes a blank record of {@code size} bytes at {@code index}; the rest of it is left as is. */
    public static void encodeBlank(ByteBuffer buffer, int index, int size) {
        if (size < BLANK_LENGTH) {
            throw new IllegalArgumentException("blank of " + size + " bytes");
        }
        buffer.putInt(index + MAGIC_OFFSET, BLANK_MAGIC);
        buffer.putInt(index + TOTAL_SIZE_OFFSET, size);
    }

    /** The CRC32C of bytes [0, 8) and [12, size) of the record at {@code index}. */
    public static int checksum(ByteBuffer buffer, int index, int size) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.slice(index, CRC_OFFSET));
        crc.update(buffer.slice(index + FLAGS_OFFSET, size - FLAGS_OFFSET));
        return (int) crc.getValue();
    }

    /**
     * Checks whether a complete, intact record or blank starts at {@code index}, reading at most
     * {@code available} bytes. Never reads outside {@code [index, index + available)}.
     */
    public static RecordStatus check(ByteBuffer buffer, int index, int available) {
        return check(buffer, index, available, true);
    }

    /**
     * As {@link #check(ByteBuffer, int, int)}, computing the checksum only if
     * {@code verifyChecksum}: a reader that knows the bytes intact (it wrote them, or verified
     * them since) checks the layout alone, which bounds every read of the record.
     */
    public static RecordStatus check(ByteBuffer buffer, int index, int available, boolean verifyChecksum) {
        if (available < BLANK_LENGTH) {
            return available > 0 && isZero(buffer, index, available)
                    ? RecordStatus.EMPTY : RecordStatus.BAD_SIZE;
        }
        int size = buffer.getInt(index + TOTAL_SIZE_OFFSET);
        int magic = buffer.getInt(index + MAGIC_OFFSET);
        if (magic == BLANK_MAGIC) {
            return size >= BLANK_LENGTH && size <= available ? RecordStatus.BLANK : RecordStatus.BAD_SIZE;
        }
        if (magic != MAGIC) {
            return size == 0 && magic == 0 ? RecordStatus.EMPTY : RecordStatus.BAD_MAGIC;
        }
        if (size < MIN_LENGTH || size > available) {
            return RecordStatus.BAD_SIZE;
        }
        int destinationLength = buffer.getShort(index + DESTINATION_LENGTH_OFFSET);
        if (destinationLength < 0 || propertiesOffset(destinationLength) + 4 > size) {
            return RecordStatus.BAD_LAYOUT;
        }
        int propertiesLength = buffer.getInt(index + propertiesLengthOffset(destinationLength));
        if (propertiesLength < 0 || (long) bodyOffset(destinationLength, 0) + propertiesLength > size) {
            return RecordStatus.BAD_LAYOUT;
        }
        int bodyLength = buffer.getInt(index + bodyLengthOffset(destinationLength, propertiesLength));
        boolean producer = RecordFlags.isSet(buffer.getInt(index + FLAGS_OFFSET), RecordFlags.PRODUCER);
        if (bodyLength < 0 || recordLength(destinationLength, propertiesLength, bodyLength, producer) != size) {
            return RecordStatus.BAD_LAYOUT;
        }
        if (verifyChecksum && buffer.getInt(index + CRC_OFFSET) != checksum(buffer, index, size)) {
            return RecordStatus.BAD_CHECKSUM;
        }
        return RecordStatus.VALID;
    }

    private static boolean isZero(ByteBuffer buffer, int index, int length) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(index + i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] destinationBytes(MessageRecord record) {
        byte[] bytes = record.destination().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_DESTINATION_LENGTH) {
            throw new IllegalArgumentException("destination of " + bytes.length + " bytes");
        }
        return bytes;
    }
}
