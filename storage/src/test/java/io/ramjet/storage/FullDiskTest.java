package io.ramjet.storage;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store on a real full disk: a 32 MiB tmpfs mounted for the test (skipped where it cannot
 * be mounted), filled by a filler file to the byte count each case needs.
 */
class FullDiskTest {

    private static final int SEGMENT = 1 << 20;
    private static final long MIN_FREE = 4L << 20;

    @TempDir
    Path mountPoint;

    private Path dir;
    private Path filler;

    @BeforeEach
    void mount() throws Exception {
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mountPoint.toString())
                .redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes());
        Assumptions.assumeTrue(mount.waitFor() == 0, "cannot mount a tmpfs here (" + output.trim()
                + "): the full-disk cases need a small file system");
        dir = mountPoint.resolve("store");
        filler = mountPoint.resolve("filler");
    }

    @AfterEach
    void unmount() throws Exception {
        if (dir != null) {
            new ProcessBuilder("umount", "-l", mountPoint.toString()).inheritIO().start().waitFor();
        }
    }

    private StoreConfig config() {
        return StoreConfig.defaults(dir).withSegmentSize(SEGMENT).withMinFreeSpace(MIN_FREE)
                .withCheckpointInterval(Duration.ofHours(1));
    }

    /** Grows or shrinks the filler so that {@code bytes} stay usable. */
    private void leaveUsable(long bytes) throws IOException {
        long usable = Files.getFileStore(mountPoint).getUsableSpace();
        long size = Files.exists(filler) ? Files.size(filler) : 0;
        long target = Math.max(0, size + usable - bytes);
        try (RandomAccessFile file = new RandomAccessFile(filler.toFile(), "rw")) {
            if (target < size) {
                file.setLength(target);
            } else {
                byte[] chunk = new byte[64 * 1024];
                file.seek(size);
                for (long at = size; at < target; at += chunk.length) {
                    file.write(chunk, 0, (int) Math.min(chunk.length, target - at));
                }
                file.getFD().sync();
            }
        }
    }

    private static MessageRecord ack(int seq) {
        return new MessageRecord(RecordFlags.of(RecordType.ACK, 0), "$acks", 0, -1, 0, 0, 0, new byte[0],
                TestRecords.body(seq, 200));
    }

    private static List<Long> offsets(MessageStore store, String destination) {
        return store.readQueue(destination, 0, 0, 10_000).stream().map(ConsumeQueueEntry::physicalOffset).toList();
    }

    /**
     * Appends one message to each of new queues {@code prefix}0, 1, ... until one finds neither a
     * prepared first file (the store keeps {@value ConsumeQueueTable#FIRST_FILES}, made before the
     * disk filled up) nor room to create one, and stalls dispatch; returns that append.
     */
    private static AppendResult appendToNewQueuesUntilDispatchStalls(MessageStore store, String prefix)
            throws Exception {
        for (int q = 0; q <= ConsumeQueueTable.FIRST_FILES + 1; q++) {
            AppendResult appended = store.append(TestRecords.record(prefix + q, 0, q, 100), true).join();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .until(() -> store.dispatchedOffset() >= appended.endOffset() || store.dispatchStalled());
            if (store.dispatchStalled()) {
                return appended;
            }
            assertEquals(List.of(appended.physicalOffset()), offsets(store, prefix + q), "took a prepared file");
        }
        throw new AssertionError("dispatch never stalled: the new queues' first files fit in the reserve");
    }

    /**
     * Appends to queue "fill" until the next CommitLog segment is being prepared, and waits until
     * its zeros are written: messages are then taken on a disk too full for one more segment.
     */
    private void prepareNextSegment(MessageStore store) throws IOException {
        for (int i = 0; i <= SEGMENT / 2 / 1_000; i++) {
            store.append(TestRecords.record("fill", 0, i, 1_000), true).join();
        }
        Path next = dir.resolve("commitlog").resolve(MappedFile.name(SEGMENT) + ".next");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(next) && Files.size(next) == SEGMENT);
    }

    /** Waits until the prepared next segment lets messages in. */
    private static void awaitRoomForMessages(MessageStore store) {
        await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(StoreFullException.class).until(() -> {
            store.checkRoomForMessages();
            return true;
        });
    }

    private static String destination(MessageStore store, AppendResult appended) {
        return store.read(appended.physicalOffset()).destination();
    }

    @Test
    void aRecordThatCannotBeIndexedStallsDispatchAndSurvivesACrash() throws Exception {
        MessageStore store = MessageStore.open(config());
        AppendResult first = store.append(TestRecords.record("a", 0, 0, 100), true).join();
        store.dispatchedTo(store.maxPhysicalOffset()).get(10, TimeUnit.SECONDS);
        prepareNextSegment(store);
        store.checkpoint();
        leaveUsable(MIN_FREE / 4 + 8 * 1024);
        awaitRoomForMessages(store);

        AppendResult stalled = appendToNewQueuesUntilDispatchStalls(store, "b");
        assertEquals(stalled.physicalOffset(), store.dispatchedOffset(), "dispatch waits at the record");
        assertThrows(StoreFullException.class, () -> store.append(TestRecords.record("a", 0, 3, 100), true),
                "new messages are refused while dispatch is stalled");
        AppendResult behind = store.append(ack(0), true).join();
        await("nothing after it is passed either").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
                .until(() -> store.dispatchedOffset() == stalled.physicalOffset());
        assertTrue(store.checkpoint() <= stalled.physicalOffset(), "checkpoints stay below it");
        store.closeAbruptly();

        leaveUsable(16L << 20);
        try (MessageStore reopened = MessageStore.open(config())) {
            assertEquals(List.of(first.physicalOffset()), offsets(reopened, "a"));
            assertEquals(List.of(stalled.physicalOffset()), offsets(reopened, destination(reopened, stalled)),
                    "recovery rebuilt its entry");
            assertEquals(behind.endOffset(), reopened.dispatchedOffset());
            assertFalse(reopened.dispatchStalled());
        }
    }

    @Test
    void dispatchResumesWhenRoomComesBack() throws Exception {
        try (MessageStore store = MessageStore.open(config())) {
            store.append(TestRecords.record("a", 0, 0, 100), true).join();
            prepareNextSegment(store);
            leaveUsable(MIN_FREE / 4 + 8 * 1024);
            awaitRoomForMessages(store);
            List<AppendResult> sent = new ArrayList<>();
            sent.add(appendToNewQueuesUntilDispatchStalls(store, "new-0-"));
            assertThrows(StoreFullException.class, () -> store.append(TestRecords.record("new-1", 0, 1, 100), true));

            leaveUsable(16L << 20);
            long end = store.maxPhysicalOffset();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> store.dispatchedOffset() >= end);
            assertEquals(end, store.dispatchedOffset());
            assertFalse(store.dispatchStalled());
            for (int q = 1; q < 5; q++) {
                sent.add(store.append(TestRecords.record("new-" + q, 0, q, 100), true).join());
            }
            store.dispatchedTo(store.maxPhysicalOffset()).get(10, TimeUnit.SECONDS);
            assertEquals(List.of(sent.get(0).physicalOffset()), offsets(store, destination(store, sent.get(0))));
            for (int q = 1; q < 5; q++) {
                assertEquals(List.of(sent.get(q).physicalOffset()), offsets(store, "new-" + q));
            }
            store.append(TestRecords.record("a", 0, 9, 100), true).join();
        }
    }

    @Test
    void consumersCanAcknowledgeEveryMessageOfAFullDiskWithSegmentsLargerThanTheFreeSpace() throws Exception {
        int segment = 8 << 20;
        long minFree = 2L << 20;
        StoreConfig config = StoreConfig.defaults(dir).withSegmentSize(segment).withMinFreeSpace(minFree)
                .withCheckpointInterval(Duration.ofHours(1));
        try (MessageStore store = MessageStore.open(config)) {
            store.append(TestRecords.record("a", 0, 0, 1_000), true).join();
            leaveUsable(segment + segment / 2 + minFree); // the second segment fits, a third does not
            int accepted = 1;
            try {
                while (true) {
                    store.append(TestRecords.record("a", 0, accepted, 1_000), true).join();
                    accepted++;
                }
            } catch (StoreFullException refused) {
                assertTrue(accepted > segment / 2 / 1_100, "messages filled the first segment: " + accepted);
            }
            for (int i = 0; i < 2 * accepted; i++) {
                store.append(ack(i), true).join(); // per message, what a consumer writes: a MARK and an ACK
            }
            assertThrows(StoreFullException.class, () -> store.append(TestRecords.record("a", 0, 0, 10), true),
                    "messages are still refused");
        }
    }

    @Test
    void controlRecordsStillAppendWhenMessagesAreRefused() throws Exception {
        try (MessageStore store = MessageStore.open(config())) {
            store.append(TestRecords.record("a", 0, 0, 100), true).join();
            leaveUsable(SEGMENT + MIN_FREE + SEGMENT / 2); // the second segment fits, a third does not
            int accepted = 1;
            StoreFullException refused = null;
            while (refused == null) {
                try {
                    store.append(TestRecords.record("a", 0, accepted, 1_000), true).join();
                    accepted++;
                } catch (StoreFullException e) {
                    refused = e;
                }
            }
            assertTrue(accepted > 500, "the first segment filled up: " + accepted);
            int segments = store.segmentCount();
            for (int i = 0; i < 6_000; i++) {
                store.append(ack(i), true).join();
            }
            assertTrue(store.segmentCount() > segments, "acknowledgements took a segment from the reserve");
            assertThrows(StoreFullException.class, () -> store.append(TestRecords.record("a", 0, 0, 10), true),
                    "no message goes into the reserve");

            leaveUsable(16L << 20);
            store.append(TestRecords.record("a", 0, accepted, 1_000), true).join();
            store.dispatchedTo(store.maxPhysicalOffset()).get(10, TimeUnit.SECONDS);
            assertEquals(accepted + 1, store.maxQueueOffset("a", 0));
        }
    }
}
