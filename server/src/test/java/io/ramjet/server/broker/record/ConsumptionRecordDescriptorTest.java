package io.ramjet.server.broker.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden bytes of the broker's consumption records: each layout is encoded from a fixed value
 * and compared with the bytes existing data directories hold, then decoded back. A change of
 * layout, or a reordering of an enum written to disk, fails here.
 */
class ConsumptionRecordDescriptorTest {

    private static final String ACK = "0100000001740400000001630000000173000000010000000200000000000000"
            + "07";
    private static final String SUBSCRIBE = "020000000174040000000163000000017300000003613d310100000002000000"
            + "00000000030000000000000004";
    private static final String UNSUBSCRIBE = "0300000001740400000001630000000173";
    private static final String MARK = "0600000001740400000001630000000173000000010000000000000009";
    private static final String CREATE_DESTINATION = "0400000001740100000003";
    private static final String DELETE_DESTINATION = "05000000017401";

    private static final RecordKey KEY = new SubscriptionKey("t", SubscriptionKind.SHARED_DURABLE, "c", "s").toRecord();

    private static ConsumptionRecordDescriptor.Decoded golden(String hex, MessageRecord record) {
        assertEquals(ConsumptionRecordDescriptor.DESTINATION, record.destination());
        assertEquals(hex, HexFormat.of().formatHex(record.body()));
        return ConsumptionRecordDescriptor.decode(ByteBuffer.wrap(HexFormat.of().parseHex(hex)));
    }

    @Test
    void ack() {
        var decoded = golden(ACK, ConsumptionRecordDescriptor.ack(KEY, List.of(new QueuePosition(2, 7))));
        assertEquals(KEY, decoded.key());
        assertEquals(List.of(new QueuePosition(2, 7)), decoded.positions());
    }

    @Test
    void subscribe() {
        var decoded = golden(SUBSCRIBE,
                ConsumptionRecordDescriptor.subscribe(KEY, "a=1", true, new long[] {3, 4}));
        assertEquals(KEY, decoded.key());
        assertEquals("a=1", decoded.selector());
        assertEquals(true, decoded.noLocal());
        assertArrayEquals(new long[] {3, 4}, decoded.startOffsets());
    }

    @Test
    void unsubscribe() {
        assertEquals(KEY, golden(UNSUBSCRIBE, ConsumptionRecordDescriptor.unsubscribe(KEY)).key());
    }

    @Test
    void mark() {
        var decoded = golden(MARK, ConsumptionRecordDescriptor.mark(KEY, 1, 9));
        assertEquals(KEY, decoded.key());
        assertEquals(List.of(new QueuePosition(1, 9)), decoded.positions());
    }

    @Test
    void createAndDeleteDestination() {
        var created = golden(CREATE_DESTINATION,
                ConsumptionRecordDescriptor.createDestination("t", DestinationKind.TOPIC, 3));
        assertEquals("t", created.destination());
        assertEquals(DestinationKind.TOPIC, created.kind());
        assertEquals(3, created.queueCount());
        var deleted = golden(DELETE_DESTINATION,
                ConsumptionRecordDescriptor.deleteDestination("t", DestinationKind.TOPIC));
        assertEquals("t", deleted.destination());
        assertEquals(DestinationKind.TOPIC, deleted.kind());
    }
}
