package io.ramjet.model.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessageRecordDescriptorTest {

    private static final MessageRecord RECORD = new MessageRecord(
            RecordFlags.of(RecordType.NORMAL, RecordFlags.NON_PERSISTENT), "orders.é", 3, 42,
            1_000L, 2_000L, 0x1234_5678_9ABC_DEF0L,
            "k=v".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3, 4, 5});

    private static ByteBuffer encoded(int at) {
        ByteBuffer buffer = ByteBuffer.allocate(at + MessageRecordDescriptor.recordLength(RECORD) + 16);
        MessageRecordDescriptor.encode(buffer, at, RECORD, 777L, 3_000L);
        return buffer;
    }

    @Test
    void encodedRecordReadsBackEveryField() {
        ByteBuffer buffer = encoded(10);
        int size = MessageRecordDescriptor.recordLength(RECORD);
        assertEquals(RecordStatus.VALID, MessageRecordDescriptor.check(buffer, 10, size));

        MessageRecordView view = MessageRecordView.wrap(buffer.slice(10, size));
        assertEquals(size, view.totalSize());
        assertEquals(RecordType.NORMAL, view.type());
        assertEquals(true, RecordFlags.isSet(view.flags(), RecordFlags.NON_PERSISTENT));
        assertEquals(3, view.queueId());
        assertEquals(42, view.queueOffset());
        assertEquals(777L, view.physicalOffset());
        assertEquals(1_000L, view.bornTimestamp());
        assertEquals(3_000L, view.storeTimestamp());
        assertEquals(2_000L, view.deliveryTime());
        assertEquals(0x1234_5678_9ABC_DEF0L, view.tagSignature());
        assertEquals("orders.é", view.destination());
        MessageRecord copy = view.toRecord();
        assertArrayEquals(RECORD.properties(), copy.properties());
        assertArrayEquals(RECORD.body(), copy.body());
    }

    @Test
    void layoutOffsetsAreTheDocumentedOnes() {
        assertEquals(68, MessageRecordDescriptor.DESTINATION_LENGTH_OFFSET);
        assertEquals(78, MessageRecordDescriptor.MIN_LENGTH);
        assertEquals(78 + 8 + 3 + 5, MessageRecordDescriptor.recordLength(8, 3, 5));
        ByteBuffer buffer = encoded(0);
        assertEquals(MessageRecordDescriptor.MAGIC, buffer.getInt(4));
        assertEquals(3, buffer.getInt(16));
        assertEquals(777L, buffer.getLong(28));
    }

    @Test
    void anyFlippedByteFailsTheCheck() {
        int size = MessageRecordDescriptor.recordLength(RECORD);
        for (int i = 0; i < size; i++) {
            ByteBuffer buffer = encoded(0);
            buffer.put(i, (byte) (buffer.get(i) ^ 0x40));
            RecordStatus status = MessageRecordDescriptor.check(buffer, 0, buffer.capacity());
            assertEquals(false, status.isRecord(), "flipped byte " + i + " gave " + status);
        }
    }

    @Test
    void cutRecordIsBadSize() {
        ByteBuffer buffer = encoded(0);
        int size = MessageRecordDescriptor.recordLength(RECORD);
        assertEquals(RecordStatus.BAD_SIZE, MessageRecordDescriptor.check(buffer, 0, size - 1));
    }

    @Test
    void offsetInsideARecordIsNotARecord() {
        ByteBuffer buffer = encoded(0);
        for (int i = 1; i < MessageRecordDescriptor.recordLength(RECORD); i++) {
            assertEquals(false, MessageRecordDescriptor.check(buffer, i, buffer.capacity() - i).isRecord());
        }
    }

    @Test
    void blankAndZerosAreRecognised() {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        assertEquals(RecordStatus.EMPTY, MessageRecordDescriptor.check(buffer, 0, 64));
        assertEquals(RecordStatus.EMPTY, MessageRecordDescriptor.check(buffer, 60, 4));
        MessageRecordDescriptor.encodeBlank(buffer, 16, 48);
        assertEquals(RecordStatus.BLANK, MessageRecordDescriptor.check(buffer, 16, 48));
        assertEquals(RecordStatus.BAD_SIZE, MessageRecordDescriptor.check(buffer, 16, 40));
    }

    @Test
    void garbageMagicIsBadMagic() {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        buffer.putInt(0, 100).putInt(4, 0xDEAD_BEEF);
        assertEquals(RecordStatus.BAD_MAGIC, MessageRecordDescriptor.check(buffer, 0, 64));
    }

    @Test
    void recordTooLargeForBufferIsRefused() {
        ByteBuffer buffer = ByteBuffer.allocate(MessageRecordDescriptor.recordLength(RECORD) - 1);
        assertThrows(IndexOutOfBoundsException.class,
                () -> MessageRecordDescriptor.encode(buffer, 0, RECORD, 0, 0));
    }

    @Test
    void flagsCarryTypeAndBits() {
        int flags = RecordFlags.of(RecordType.PREPARED, RecordFlags.NON_PERSISTENT);
        assertEquals(RecordType.PREPARED, RecordFlags.type(flags));
        assertThrows(IllegalArgumentException.class, () -> RecordFlags.type(0x7F));
        assertThrows(IllegalArgumentException.class, () -> RecordFlags.of(RecordType.ACK, 1 << 20));
    }

    @Test
    void aProducerFlagWithoutItsSectionIsBadLayout() {
        ByteBuffer buffer = encoded(0);
        int size = MessageRecordDescriptor.recordLength(RECORD);
        buffer.putInt(MessageRecordDescriptor.FLAGS_OFFSET, RECORD.flags() | RecordFlags.PRODUCER);
        assertEquals(RecordStatus.BAD_LAYOUT, MessageRecordDescriptor.check(buffer, 0, size, false));
    }

    @Test
    void theProducerFlagFollowsTheProducerId() {
        MessageRecord produced = new MessageRecord(RECORD.flags(), "q", 0, -1, 0, 0, 0, new byte[0], new byte[0],
                7, 1);
        assertTrue(RecordFlags.isSet(produced.flags(), RecordFlags.PRODUCER));
        MessageRecord plain = new MessageRecord(produced.flags(), "q", 0, -1, 0, 0, 0, new byte[0], new byte[0]);
        assertFalse(RecordFlags.isSet(plain.flags(), RecordFlags.PRODUCER));
        assertEquals(MessageRecordDescriptor.recordLength(plain) + MessageRecordDescriptor.PRODUCER_SECTION_LENGTH,
                MessageRecordDescriptor.recordLength(produced));
        assertThrows(IllegalArgumentException.class,
                () -> new MessageRecord(RECORD.flags(), "q", 0, -1, 0, 0, 0, new byte[0], new byte[0], 0, 3));
    }
}
