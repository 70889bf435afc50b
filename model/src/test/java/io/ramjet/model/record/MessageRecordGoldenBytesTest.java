package io.ramjet.model.record;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Pins the CommitLog record of {@link MessageRecordDescriptor} to bytes, so that a moved field, a
 * changed width or another checksum range fails here rather than on a log written by an older
 * version; and the codes of the record types, which are on disk in the flags.
 */
class MessageRecordGoldenBytesTest {

    private static final HexFormat HEX = HexFormat.of();

    private static final MessageRecord RECORD = new MessageRecord(
            RecordFlags.of(RecordType.TIMER, RecordFlags.NON_PERSISTENT), "orders", 3, 42L,
            1_700_000_000_000L, 1_700_000_060_000L, 0x1122334455667788L,
            new byte[] {1, 2, 3}, "body".getBytes(StandardCharsets.US_ASCII));
    private static final long PHYSICAL_OFFSET = 4096;
    private static final long STORE_TIMESTAMP = 1_700_000_000_500L;

    private static final String GOLDEN = "0000005b" // total size 91, written last
            + "aa1e0001" // magic
            + "ceb94c75" // CRC32C of [0, 8) and [12, 91)
            + "00000106" // flags: NON_PERSISTENT (1 << 8) | TIMER (6)
            + "00000003" // queue id
            + "000000000000002a" // queue offset 42
            + "0000000000001000" // physical offset 4096
            + "0000018bcfe56800" // born timestamp
            + "0000018bcfe569f4" // store timestamp
            + "0000018bcfe65260" // delivery time
            + "1122334455667788" // tag signature
            + "0006" // destination length
            + "6f7264657273" // "orders"
            + "00000003" // properties length
            + "010203" // properties
            + "00000004" // body length
            + "626f6479"; // "body"

    /** The same record from an idempotent producer: the flag, and the producer section at the end. */
    private static final MessageRecord PRODUCED = new MessageRecord(RECORD.flags(), RECORD.destination(),
            RECORD.queueId(), RECORD.queueOffset(), RECORD.bornTimestamp(), RECORD.deliveryTime(),
            RECORD.tagSignature(), RECORD.properties(), RECORD.body(), 0x0102030405060708L, 9L);

    private static final String GOLDEN_PRODUCED = "0000006b" // total size 107, written last
            + "aa1e0001" // magic
            + "536ccd3b" // CRC32C of [0, 8) and [12, 107)
            + "00000306" // flags: PRODUCER (1 << 9) | NON_PERSISTENT (1 << 8) | TIMER (6)
            + GOLDEN.substring(32) // queue id to body, as without a producer
            + "0102030405060708" // producer id
            + "0000000000000009"; // sequence 9

    private static String encoded(MessageRecord record) {
        ByteBuffer buffer = ByteBuffer.allocate(MessageRecordDescriptor.recordLength(record));
        MessageRecordDescriptor.encode(buffer, 0, record, PHYSICAL_OFFSET, STORE_TIMESTAMP);
        return HEX.formatHex(buffer.array());
    }

    @Test
    void aRecordEncodesToItsGoldenBytes() {
        assertEquals(GOLDEN, encoded(RECORD));
    }

    @Test
    void theGoldenBytesDecodeToTheRecord() {
        ByteBuffer buffer = ByteBuffer.wrap(HEX.parseHex(GOLDEN));
        assertEquals(RecordStatus.VALID, MessageRecordDescriptor.check(buffer, 0, buffer.capacity()));
        MessageRecordView view = MessageRecordView.wrap(buffer);
        assertEquals(RECORD.flags(), view.flags());
        assertEquals(RecordType.TIMER, view.type());
        assertEquals(RECORD.destination(), view.destination());
        assertEquals(RECORD.queueId(), view.queueId());
        assertEquals(RECORD.queueOffset(), view.queueOffset());
        assertEquals(PHYSICAL_OFFSET, view.physicalOffset());
        assertEquals(RECORD.bornTimestamp(), view.bornTimestamp());
        assertEquals(STORE_TIMESTAMP, view.storeTimestamp());
        assertEquals(RECORD.deliveryTime(), view.deliveryTime());
        assertEquals(RECORD.tagSignature(), view.tagSignature());
        MessageRecord decoded = view.toRecord();
        assertArrayEquals(RECORD.properties(), decoded.properties());
        assertArrayEquals(RECORD.body(), decoded.body());
    }

    @Test
    void aRecordWithAProducerEncodesToItsGoldenBytes() {
        assertEquals(GOLDEN_PRODUCED, encoded(PRODUCED));
    }

    @Test
    void aRecordWrittenBeforeProducerSectionsReadsAsFromNoProducer() {
        ByteBuffer buffer = ByteBuffer.wrap(HEX.parseHex(GOLDEN));
        MessageRecordView view = MessageRecordView.wrap(buffer);
        assertFalse(view.hasProducer());
        assertEquals(0, view.producerId());
        assertEquals(0, view.toRecord().sequence());
    }

    @Test
    void theProducerGoldenBytesDecodeToItsProducer() {
        ByteBuffer buffer = ByteBuffer.wrap(HEX.parseHex(GOLDEN_PRODUCED));
        assertEquals(RecordStatus.VALID, MessageRecordDescriptor.check(buffer, 0, buffer.capacity()));
        MessageRecordView view = MessageRecordView.wrap(buffer);
        assertEquals(0x0102030405060708L, view.producerId());
        assertEquals(9L, view.sequence());
        assertArrayEquals(RECORD.body(), view.toRecord().body());
        assertEquals(PRODUCED.flags(), view.toRecord().flags());
    }

    @Test
    void aBlankRecordIsItsSizeAndTheBlankMagic() {
        ByteBuffer buffer = ByteBuffer.allocate(16);
        MessageRecordDescriptor.encodeBlank(buffer, 0, 16);
        assertEquals("00000010aa1eb1a4", HEX.formatHex(buffer.array(), 0, 8));
    }

    @Test
    void recordTypeCodesAreFixed() {
        StringBuilder codes = new StringBuilder();
        for (RecordType type : RecordType.values()) {
            codes.append(type).append('=').append(RecordFlags.of(type)).append(' ');
        }
        assertEquals("NORMAL=0 PREPARED=1 COMMIT=2 ROLLBACK=3 ACK=4 SUBSCRIPTION=5 TIMER=6 VOTE=7 CHUNK=8 TX_PART=9 FENCE=10 ", codes.toString());
    }
}
