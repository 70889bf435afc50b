package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryTest {

    @TempDir
    Path dir;

    private List<AppendResult> appendAll(MessageStore store, int from, int count) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            results.add(store.append(TestRecords.record("q", 0, i, 200), true).join());
        }
        return results;
    }

    private Path segmentOf(long offset) {
        long start = offset / TestRecords.config(dir).segmentSize() * TestRecords.config(dir).segmentSize();
        return dir.resolve("commitlog").resolve(MappedFile.name(start));
    }

    private void assertQueueHolds(MessageStore store, int count) {
        List<ConsumeQueueEntry> entries = store.readQueue("q", 0, 0, count + 10);
        assertEquals(count, entries.size());
        for (int i = 0; i < count; i++) {
            TestRecords.assertIntact(store.read(entries.get(i).physicalOffset()), i);
        }
    }

    @Test
    void onlyRecordsAfterTheCheckpointAreScanned() throws Exception {
        MessageStore store = MessageStore.open(TestRecords.config(dir));
        appendAll(store, 0, 300);
        TestRecords.awaitDispatched(store);
        long checkpoint = store.checkpoint();
        assertEquals(store.maxPhysicalOffset(), checkpoint);
        appendAll(store, 300, 7);
        store.closeAbruptly();

        try (MessageStore reopened = MessageStore.open(TestRecords.config(dir))) {
            RecoveryReport report = reopened.recoveryReport();
            assertFalse(report.cleanShutdown());
            assertEquals(checkpoint, report.checkpointOffset());
            assertEquals(7, report.recordsScanned());
            assertEquals(0, report.truncatedBytes());
            assertQueueHolds(reopened, 307);
        }
    }

    @Test
    void cleanShutdownScansNothing() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            appendAll(store, 0, 100);
        }
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertTrue(store.recoveryReport().cleanShutdown());
            assertEquals(0, store.recoveryReport().recordsScanned());
            assertQueueHolds(store, 100);
        }
    }

    @Test
    void flippedBytesInTheLastRecordTruncateToTheOneBefore() throws Exception {
        MessageStore store = MessageStore.open(TestRecords.config(dir));
        List<AppendResult> results = appendAll(store, 0, 50);
        TestRecords.awaitDispatched(store);
        store.closeAbruptly();
        AppendResult last = results.get(49);
        try (RandomAccessFile file = new RandomAccessFile(segmentOf(last.physicalOffset()).toFile(), "rw")) {
            long at = last.physicalOffset() % TestRecords.config(dir).segmentSize() + 100;
            file.seek(at);
            int b = file.read();
            file.seek(at);
            file.write(b ^ 0xFF);
        }

        try (MessageStore reopened = MessageStore.open(TestRecords.config(dir))) {
            RecoveryReport report = reopened.recoveryReport();
            assertEquals(last.physicalOffset(), report.endOffset());
            assertTrue(report.truncatedBytes() > 0);
            assertEquals(49, report.recordsScanned());
            assertQueueHolds(reopened, 49);
            AppendResult next = reopened.append(TestRecords.record("q", 0, 49, 200), true).join();
            assertEquals(49, next.queueOffset());
            assertEquals(last.physicalOffset(), next.physicalOffset());
            TestRecords.awaitDispatched(reopened);
            assertQueueHolds(reopened, 50);
        }
    }

    @Test
    void aCutLastRecordIsTruncated() throws Exception {
        MessageStore store = MessageStore.open(TestRecords.config(dir));
        List<AppendResult> results = appendAll(store, 0, 30);
        TestRecords.awaitDispatched(store);
        store.closeAbruptly();
        AppendResult last = results.get(29);
        long inSegment = last.physicalOffset() % TestRecords.config(dir).segmentSize();
        try (RandomAccessFile file = new RandomAccessFile(segmentOf(last.physicalOffset()).toFile(), "rw")) {
            file.seek(inSegment + last.size() / 2);
            file.write(new byte[last.size() - last.size() / 2]);
        }

        try (MessageStore reopened = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(last.physicalOffset(), reopened.recoveryReport().endOffset());
            assertQueueHolds(reopened, 29);
        }
        try (MessageStore again = MessageStore.open(TestRecords.config(dir))) {
            assertTrue(again.recoveryReport().cleanShutdown());
            assertEquals(0, again.recoveryReport().truncatedBytes());
            assertQueueHolds(again, 29);
        }
    }

    @Test
    void consumeQueuesAreRebuiltFromTheCommitLog() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            appendAll(store, 0, 500);
        }
        RecoveryTestSupport.deleteConsumeQueues(dir);
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(500, store.recoveryReport().recordsScanned());
            assertQueueHolds(store, 500);
        }
    }

    @Test
    void aTornNewestCheckpointCopyMeansRecoveryFromThePreviousOne() throws Exception {
        long first;
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            appendAll(store, 0, 20);
            TestRecords.awaitDispatched(store);
            first = store.checkpoint();
            appendAll(store, 20, 20);
        }
        Files.write(dir.resolve("checkpoint.b"), new byte[] {1, 2, 3});
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(first, store.recoveryReport().checkpointOffset());
            assertEquals(20, store.recoveryReport().recordsScanned());
            assertQueueHolds(store, 40);
        }
    }

    @Test
    void corruptCheckpointMeansAFullScan() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            appendAll(store, 0, 40);
        }
        Files.write(dir.resolve("checkpoint"), new byte[] {1, 2, 3});
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(40, store.recoveryReport().recordsScanned());
            assertQueueHolds(store, 40);
        }
    }
}
