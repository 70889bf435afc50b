package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.storage.RecordReadException.Reason;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MessageStoreTest {

    @TempDir
    Path dir;

    private static AppendResult append(MessageStore store, MessageRecord record) {
        return store.append(record, true).join();
    }

    @Test
    void appendedRecordsReadBackAcrossRollovers() throws Exception {
        List<AppendResult> results = new ArrayList<>();
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < 1_000; i++) {
                results.add(append(store, TestRecords.record("orders", 0, i, 100 + i % 700)));
            }
            assertTrue(store.segmentCount() > 20);
            for (int i = 0; i < results.size(); i++) {
                TestRecords.assertIntact(store.read(results.get(i).physicalOffset()), i);
            }
        }
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < results.size(); i++) {
                MessageRecordView view = store.read(results.get(i).physicalOffset());
                TestRecords.assertIntact(view, i);
                assertEquals(i, view.queueOffset());
            }
        }
    }

    @Test
    void theRunningMarkerIsDurableBeforeTheFirstAppend() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        ForceRecorder recorder = new ForceRecorder() {
            @Override
            public void directoryForced(Path directory) {
                if (directory.equals(dir) && java.nio.file.Files.exists(dir.resolve("running"))) {
                    events.add("marker");
                }
            }

            @Override
            public void forced(Path file, long position, java.nio.ByteBuffer bytes) {
                if (file.startsWith(dir.resolve("commitlog")) && bytes.hasRemaining()) {
                    events.add("append");
                }
            }
        };
        try (MessageStore store = MessageStore.open(TestRecords.config(dir).toBuilder().forceRecorder(recorder).build())) {
            append(store, TestRecords.record("q", 0, 1, 100));
        }
        assertEquals("marker", events.get(0), "a crash's marker is forced before anything rests on it: " + events);
        assertTrue(events.contains("append"), "the append was forced: " + events);
    }

    @Test
    void consumeQueueEntriesPointAtTheirRecords() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < 600; i++) {
                AppendResult r = append(store, TestRecords.record("topic-" + i % 3, i % 4, i, 50));
                assertEquals(i / 12, r.queueOffset(), "queue offset of " + i);
            }
            TestRecords.awaitDispatched(store);
            for (int d = 0; d < 3; d++) {
                for (int q = 0; q < 4; q++) {
                    String destination = "topic-" + d;
                    assertEquals(50, store.maxQueueOffset(destination, q));
                    List<ConsumeQueueEntry> entries = store.readQueue(destination, q, 0, 1_000);
                    assertEquals(50, entries.size());
                    for (ConsumeQueueEntry e : entries) {
                        MessageRecordView view = store.read(e.physicalOffset());
                        assertEquals(destination, view.destination());
                        assertEquals(q, view.queueId());
                        assertEquals(e.queueOffset(), view.queueOffset());
                        assertEquals(view.tagSignature(), e.tagSignature());
                        assertEquals(view.totalSize(), e.size());
                    }
                }
            }
            List<ConsumeQueueEntry> window = store.readQueue("topic-1", 2, 40, 5);
            assertEquals(List.of(40L, 41L, 42L, 43L, 44L), window.stream().map(ConsumeQueueEntry::queueOffset).toList());
            assertEquals(List.of(), store.readQueue("topic-1", 2, 50, 5));
            assertEquals(List.of(), store.readQueue("nowhere", 0, 0, 5));
        }
    }

    @Test
    void queueOffsetsContinueAfterReopen() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < 100; i++) {
                append(store, TestRecords.record("q", 0, i, 10));
            }
        }
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(100, append(store, TestRecords.record("q", 0, 100, 10)).queueOffset());
            TestRecords.awaitDispatched(store);
            assertEquals(101, store.maxQueueOffset("q", 0));
        }
    }

    @Test
    void badOffsetsGiveClearErrors() {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            AppendResult r = append(store, TestRecords.record("q", 0, 1, 100));
            assertEquals(Reason.NOT_A_RECORD, assertThrows(RecordReadException.class,
                    () -> store.read(r.physicalOffset() + 3)).reason());
            assertEquals(Reason.PAST_END, assertThrows(RecordReadException.class,
                    () -> store.read(r.endOffset())).reason());
        }
    }

    @Test
    void aBodyGivenAsADirectBufferIsStoredAsTheRecordsBodyAndTheBufferIsLeftAsItWas() throws Exception {
        byte[] bytes = new byte[5_000];
        new java.util.Random(3).nextBytes(bytes);
        java.nio.ByteBuffer body = java.nio.ByteBuffer.allocateDirect(bytes.length + 10).put(bytes).flip();
        MessageRecord chunk = new MessageRecord(RecordFlags.of(RecordType.CHUNK), "q", 2, 77, 1, 0, 0, new byte[0],
                new byte[0]);
        try (MessageStore store = MessageStore.open(TestRecords.config(dir).withMaxRecordSize(6_000))) {
            AppendResult result = store.append(chunk, body, true).join();
            assertEquals(0, body.position(), "the buffer's position unmoved");
            MessageRecordView view = store.read(result.physicalOffset());
            assertEquals(java.nio.ByteBuffer.wrap(bytes), view.body());
            assertEquals(77, view.queueOffset());
            assertThrows(IllegalArgumentException.class, () -> store.append(chunk,
                    java.nio.ByteBuffer.allocateDirect(6_000), true), "over the maximum record size");
            assertThrows(IllegalArgumentException.class, () -> store.append(TestRecords.record("q", 0, 1, 10),
                    body, true), "a record with a body of its own");
            assertEquals(result.physicalOffset() + result.size(), store.maxPhysicalOffset(), "nothing more appended");
        }
    }

    @Test
    void oversizedRecordIsRefused() {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir).withMaxRecordSize(1_000))) {
            assertThrows(IllegalArgumentException.class,
                    () -> store.append(TestRecords.record("q", 0, 1, 1_000), true));
            assertEquals(0, store.maxPhysicalOffset());
        }
    }

    @Test
    void listenerSeesEveryRecordTypeAndOnlyNormalOnesAreQueued() throws Exception {
        List<RecordType> seen = new CopyOnWriteArrayList<>();
        DispatchListener listener = TestRecords.normalMessagesThen((record, queues) -> seen.add(record.type()));
        try (MessageStore store = MessageStore.open(TestRecords.config(dir), listener)) {
            MessageRecord normal = TestRecords.record("q", 0, 1, 10);
            MessageRecord prepared = new MessageRecord(RecordFlags.of(RecordType.PREPARED), "q", 0, -1,
                    0, 0, 0, new byte[0], new byte[] {1});
            MessageRecord commit = new MessageRecord(RecordFlags.of(RecordType.COMMIT), "q", 0, -1,
                    0, 0, 0, new byte[0], new byte[] {2});
            append(store, normal);
            AppendResult half = append(store, prepared);
            append(store, commit);
            TestRecords.awaitDispatched(store);
            assertEquals(List.of(RecordType.NORMAL, RecordType.PREPARED, RecordType.COMMIT), seen);
            assertEquals(1, store.maxQueueOffset("q", 0));
            assertEquals(-1, half.queueOffset());
        }
    }

    @Test
    void destinationNamesOfAnyCharactersGetTheirOwnQueues() throws Exception {
        List<String> names = List.of("../escape", "a/b", "é.queue", "", "%41", "A");
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < names.size(); i++) {
                append(store, TestRecords.record(names.get(i), 0, i, 10));
            }
        }
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < names.size(); i++) {
                List<ConsumeQueueEntry> entries = store.readQueue(names.get(i), 0, 0, 10);
                assertEquals(1, entries.size(), names.get(i));
                assertEquals(names.get(i), store.read(entries.get(0).physicalOffset()).destination());
            }
        }
    }

    @Test
    void secondOpenOfTheSameDirectoryIsRefused() {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertThrows(StoreException.class, () -> MessageStore.open(TestRecords.config(dir)));
        }
    }

    @Test
    void fullDiskRefusesTheAppendAndKeepsTheLogConsistent() throws Exception {
        List<AppendResult> results = new ArrayList<>();
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            results.add(append(store, TestRecords.record("q", 0, 0, 100)));
        }
        long end;
        StoreConfig noRoom = TestRecords.config(dir).withMinFreeSpace(Long.MAX_VALUE / 2);
        try (MessageStore store = MessageStore.open(noRoom)) {
            StoreFullException full = null;
            for (int i = 1; full == null && i < 1_000; i++) {
                try {
                    results.add(append(store, TestRecords.record("q", 0, i, 1_000)));
                } catch (StoreFullException e) {
                    full = e;
                }
            }
            assertTrue(full != null, "the next segment does not fit");
            end = store.maxPhysicalOffset();
            assertThrows(StoreFullException.class, () -> store.append(TestRecords.record("q", 0, 99, 1_000), true));
            assertEquals(end, store.maxPhysicalOffset());
            assertEquals(1, store.segmentCount());
            for (int i = 0; i < results.size(); i++) {
                TestRecords.assertIntact(store.read(results.get(i).physicalOffset()), i);
            }
        }
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(0, store.recoveryReport().truncatedBytes());
            assertEquals(end, store.recoveryReport().endOffset(), "a refused rollover writes nothing");
            AppendResult next = append(store, TestRecords.record("q", 0, results.size(), 1_000));
            assertEquals(results.size(), next.queueOffset());
            assertEquals(end, next.physicalOffset(), "a message is refused while the next segment does not fit");
            for (int i = 0; i < results.size(); i++) {
                TestRecords.assertIntact(store.read(results.get(i).physicalOffset()), i);
            }
        }
    }

    @Test
    void closedStoreRefusesAppends() {
        MessageStore store = MessageStore.open(TestRecords.config(dir));
        store.close();
        assertThrows(StoreException.class, () -> store.append(TestRecords.record("q", 0, 1, 1), false));
        assertFalse(dir.resolve("running").toFile().exists());
    }
}
