package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Truncating a closed store cuts its log and its queues at an offset, and the store goes on from there. */
class StoreTruncationTest {

    @TempDir
    Path dir;

    private List<AppendResult> fill(MessageStore store, int from, int count) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            results.add(store.append(TestRecords.record("orders", i % 2, i, 200 + i % 300), true).join());
        }
        return results;
    }

    @Test
    void truncatedStoreEndsAtTheOffsetWithQueuesCutAndAppendsContinueThere() throws Exception {
        List<AppendResult> written;
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            written = fill(store, 0, 300);
            TestRecords.awaitDispatched(store);
            store.checkpoint();
        }
        AppendResult cut = written.get(120);
        assertEquals(written.get(299).endOffset(), StoreTruncation.logEnd(TestRecords.config(dir)));
        StoreTruncation.truncate(TestRecords.config(dir), cut.physicalOffset());
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(cut.physicalOffset(), store.maxPhysicalOffset());
            TestRecords.awaitDispatched(store);
            assertEquals(60, store.maxQueueOffset("orders", 0));
            assertEquals(60, store.maxQueueOffset("orders", 1));
            for (int i = 0; i < 120; i++) {
                TestRecords.assertIntact(store.read(written.get(i).physicalOffset()), i);
            }
            AppendResult next = store.append(TestRecords.record("orders", 0, 999, 50), true).join();
            assertEquals(cut.physicalOffset(), next.physicalOffset());
            assertEquals(60, next.queueOffset());
        }
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            TestRecords.assertIntact(store.read(cut.physicalOffset()), 999);
        }
    }

    @Test
    void truncatingAtASegmentStartLeavesTheEarlierSegmentsWhole() throws Exception {
        long segmentStart = 16 * 1024;
        List<AppendResult> written;
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            written = fill(store, 0, 200);
        }
        StoreTruncation.truncate(TestRecords.config(dir), segmentStart);
        assertEquals(segmentStart, StoreTruncation.logEnd(TestRecords.config(dir)));
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(segmentStart, store.maxPhysicalOffset());
            for (int i = 0; written.get(i).physicalOffset() < segmentStart; i++) {
                TestRecords.assertIntact(store.read(written.get(i).physicalOffset()), i);
            }
            assertEquals(segmentStart, store.append(TestRecords.record("orders", 0, 999, 50), true).join()
                    .physicalOffset());
        }
    }

    @Test
    void anOpenStoreCannotBeTruncated() {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            fill(store, 0, 10);
            assertThrows(StoreException.class, () -> StoreTruncation.truncate(TestRecords.config(dir), 0));
        }
    }
}
