package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Records whose body is derived from a sequence number, so any copy can be checked. */
final class TestRecords {

    private TestRecords() {
    }

    /** Waits until the listener has had every record written so far. */
    static void awaitDispatched(MessageStore store) throws Exception {
        store.dispatchedTo(store.maxPhysicalOffset()).get(10, TimeUnit.SECONDS);
    }

    /** NORMAL records into their queues as the store does by default, then {@code next}. */
    static DispatchListener normalMessagesThen(DispatchListener next) {
        DispatchListener normal = DispatchListener.normalMessages();
        return (record, queues) -> {
            normal.onRecord(record, queues);
            next.onRecord(record, queues);
        };
    }

    /** Small segments and queue files so rollovers happen; checkpoints only when asked. */
    static StoreConfig config(Path directory) {
        return StoreConfig.defaults(directory)
                .withSegmentSize(16 * 1024)
                .withConsumeQueueEntriesPerFile(64)
                .withMinFreeSpace(0)
                .withCheckpointInterval(Duration.ofHours(1));
    }

    static MessageRecord record(String destination, int queueId, long seq, int bodySize) {
        return MessageRecord.message(destination, queueId, seq * 31,
                ("seq=" + seq).getBytes(StandardCharsets.UTF_8), body(seq, bodySize));
    }

    /** As {@link #record}, NON_PERSISTENT: dispatched without waiting for a force. */
    static MessageRecord nonPersistent(String destination, int queueId, long seq, int bodySize) {
        MessageRecord m = record(destination, queueId, seq, bodySize);
        return new MessageRecord(RecordFlags.of(RecordType.NORMAL, RecordFlags.NON_PERSISTENT), m.destination(),
                m.queueId(), m.queueOffset(), m.bornTimestamp(), m.deliveryTime(), m.tagSignature(), m.properties(),
                m.body());
    }

    static byte[] body(long seq, int size) {
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) (seq * 7 + i);
        }
        return body;
    }

    static long seqOf(MessageRecordView view) {
        ByteBuffer properties = view.properties();
        byte[] bytes = new byte[properties.remaining()];
        properties.get(0, bytes);
        return Long.parseLong(new String(bytes, StandardCharsets.UTF_8).substring(4));
    }

    static void assertIntact(MessageRecordView view, long seq) {
        assertEquals(seq, seqOf(view));
        assertEquals(seq * 31, view.tagSignature());
        ByteBuffer body = view.body();
        byte[] bytes = new byte[body.remaining()];
        body.get(0, bytes);
        assertArrayEquals(body(seq, bytes.length), bytes, "body of " + seq);
    }
}
