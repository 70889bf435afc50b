package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumeQueueTest {

    private static final int PER_FILE = 64;
    private static final int RECORD = 100;

    @TempDir
    Path dir;

    private ConsumeQueue filled(int count) {
        ConsumeQueue queue = new ConsumeQueue(dir, PER_FILE, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        for (int i = 0; i < count; i++) {
            assertTrue(queue.put(i, (long) i * RECORD, RECORD, i * 3L));
        }
        return queue;
    }

    @Test
    void lookupsByLogicalOffsetSpanFiles() {
        ConsumeQueue queue = filled(1_000);
        assertEquals(1_000, queue.nextOffset());
        assertEquals(16, MappedFile.list(dir).size());
        List<ConsumeQueueEntry> window = queue.read(60, 10);
        assertEquals(10, window.size());
        for (int i = 0; i < 10; i++) {
            ConsumeQueueEntry e = window.get(i);
            assertEquals(new ConsumeQueueEntry(60 + i, (60L + i) * RECORD, RECORD, (60L + i) * 3), e);
        }
        assertEquals(1_000, queue.read(0, 5_000).size());
        assertEquals(List.of(), queue.read(1_000, 10));
        assertEquals(ConsumeQueueEntryDescriptor.LENGTH * PER_FILE, dir.resolve(MappedFile.name(64)).toFile().length());
    }

    @Test
    void aSliceReadsEntriesInBulkAcrossFiles() {
        ConsumeQueue queue = filled(1_000);
        ConsumeQueueSlice slice = new ConsumeQueueSlice(100);
        queue.read(60, slice);
        assertEquals(60, slice.from());
        assertEquals(160, slice.end());
        for (long o = 60; o < 160; o++) {
            assertEquals(o * RECORD, slice.physicalOffset(o));
            assertEquals(RECORD, slice.size(o));
            assertEquals(o * 3, slice.tagSignature(o));
        }
        assertFalse(slice.holds(160));
        assertThrows(IndexOutOfBoundsException.class, () -> slice.size(59));
        queue.read(950, slice);
        assertEquals(1_000, slice.end());
        queue.read(1_000, slice);
        assertFalse(slice.holds(1_000));
        assertEquals(1_000, slice.end());
    }

    @Test
    void aSliceBelowTheOldestFileIsBelowRetained() {
        ConsumeQueue queue = filled(200);
        queue.deleteFilesBelow(128L * RECORD);
        RecordReadException e = assertThrows(RecordReadException.class, () -> queue.read(0, new ConsumeQueueSlice(8)));
        assertEquals(RecordReadException.Reason.BELOW_RETAINED, e.reason());
    }

    @Test
    void duplicatesAreIgnoredAndGapsRefused() {
        ConsumeQueue queue = filled(10);
        assertFalse(queue.put(5, 0, RECORD, 0));
        assertFalse(queue.put(12, 1_200, RECORD, 0));
        assertEquals(10, queue.nextOffset());
    }

    @Test
    void recoveryKeepsOnlyEntriesBelowTheCheckpoint() {
        filled(300);
        ConsumeQueue reopened = new ConsumeQueue(dir, PER_FILE, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        reopened.recover(150L * RECORD);
        assertEquals(150, reopened.nextOffset());
        assertEquals(3, MappedFile.list(dir).size());
        assertTrue(reopened.put(150, 150L * RECORD, RECORD, 0));
    }

    @Test
    void recoveryStopsAtATornEntry() {
        ConsumeQueue queue = filled(100);
        MappedFile second = MappedFile.open(dir.resolve(MappedFile.name(64)));
        second.buffer().putInt(ConsumeQueueEntryDescriptor.position(10) + ConsumeQueueEntryDescriptor.SIZE_OFFSET, 0);
        second.close();
        ConsumeQueue reopened = new ConsumeQueue(dir, PER_FILE, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        reopened.recover(Long.MAX_VALUE);
        assertEquals(74, reopened.nextOffset());
        assertEquals(74, reopened.read(0, 1_000).size());
    }

    @Test
    void readBelowTheOldestFileIsBelowRetained() {
        ConsumeQueue queue = filled(200);
        assertEquals(2, queue.deleteFilesBelow(128L * RECORD));
        assertEquals(128, queue.minOffset());
        RecordReadException e = assertThrows(RecordReadException.class, () -> queue.read(10, 1));
        assertEquals(RecordReadException.Reason.BELOW_RETAINED, e.reason());
        assertEquals(128, queue.read(128, 1).get(0).queueOffset());
    }

    @Test
    void filesGrowFromASmallFirstOneUpToTheConfiguredSize() {
        int max = 5_000;
        ConsumeQueue queue = new ConsumeQueue(dir, max, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        int count = 20_000;
        for (int i = 0; i < count; i++) {
            assertTrue(queue.put(i, (long) i * RECORD, RECORD, i));
        }
        List<Long> sizes = MappedFile.list(dir).stream().map(p -> p.toFile().length() / ConsumeQueueEntryDescriptor.LENGTH)
                .toList();
        assertEquals(List.of(1024L, 2048L, 4096L, 5000L, 5000L, 5000L), sizes);
        assertEquals(List.of(MappedFile.name(0), MappedFile.name(1024), MappedFile.name(3072), MappedFile.name(7168),
                        MappedFile.name(12168), MappedFile.name(17168)),
                MappedFile.list(dir).stream().map(p -> p.getFileName().toString()).toList());
        List<ConsumeQueueEntry> across = queue.read(1_000, 3_000);
        for (int i = 0; i < across.size(); i++) {
            assertEquals(new ConsumeQueueEntry(1_000 + i, (1_000L + i) * RECORD, RECORD, 1_000 + i), across.get(i));
        }
        assertEquals(3_000, across.size());
    }

    @Test
    void aQueueOfOneMessageCostsOneSmallFile() {
        ConsumeQueue queue = new ConsumeQueue(dir, StoreConfig.DEFAULT_ENTRIES_PER_FILE, 0, Runnable::run,
                FirstFilePool.none(), ForceRecorder.NONE);
        queue.put(0, 0, RECORD, 0);
        assertEquals(List.of(dir.resolve(MappedFile.name(0))), MappedFile.list(dir));
        assertEquals(1024L * ConsumeQueueEntryDescriptor.LENGTH, dir.resolve(MappedFile.name(0)).toFile().length());
    }

    @Test
    void recoveryAndRetentionWorkAcrossFilesOfDifferentSizes() {
        ConsumeQueue queue = new ConsumeQueue(dir, 5_000, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        for (int i = 0; i < 9_000; i++) {
            queue.put(i, (long) i * RECORD, RECORD, i);
        }
        queue.close();
        ConsumeQueue reopened = new ConsumeQueue(dir, 5_000, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        assertEquals(1024L + 2048 + 4096 + 5000, reopened.nextOffset(), "the end derives from the last file's size");
        reopened.recover(5_000L * RECORD);
        assertEquals(5_000, reopened.nextOffset());
        assertEquals(3, MappedFile.list(dir).size(), "the file that starts past the cut is deleted");
        assertEquals(new ConsumeQueueEntry(4_999, 4_999L * RECORD, RECORD, 4_999), reopened.read(4_999, 5).get(0));
        assertEquals(1, reopened.read(4_999, 5).size());
        assertTrue(reopened.put(5_000, 5_000L * RECORD, RECORD, 0));

        assertEquals(2, reopened.deleteFilesBelow(3_072L * RECORD));
        assertEquals(3_072, reopened.minOffset());
        assertEquals(3_072, reopened.read(3_072, 1).get(0).queueOffset());
        assertThrows(RecordReadException.class, () -> reopened.read(3_071, 1));
    }

    @Test
    void aCleanRecoveryWritesNothing() throws Exception {
        ConsumeQueue queue = filled(10);
        queue.flush(new DirectoryForces());
        queue.close();
        Path file = dir.resolve(MappedFile.name(0));
        java.nio.file.attribute.FileTime before = java.nio.file.Files.getLastModifiedTime(file);
        // the clock moves past the file's timestamp, so a write during recovery would show
        Thread.sleep(20);
        ConsumeQueue reopened = new ConsumeQueue(dir, PER_FILE, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        reopened.recover(Long.MAX_VALUE);
        assertEquals(10, reopened.nextOffset());
        assertEquals(before, java.nio.file.Files.getLastModifiedTime(file));
    }

    @Test
    void theNextFileIsPreparedOnThePreparerOnceTheLastIsHalfFullAndTakenWhenReached() throws Exception {
        List<Runnable> preparer = new ArrayList<>();
        ConsumeQueue queue = new ConsumeQueue(dir, PER_FILE, 0, preparer::add, FirstFilePool.none(), ForceRecorder.NONE);
        for (int i = 0; i < PER_FILE / 2 - 1; i++) {
            queue.put(i, (long) i * RECORD, RECORD, i);
        }
        assertEquals(0, preparer.size(), "nothing prepared before the file is half full");
        queue.put(PER_FILE / 2 - 1, (PER_FILE / 2 - 1L) * RECORD, RECORD, 0);
        assertEquals(1, preparer.size());
        Path prepared = dir.resolve(MappedFile.name(PER_FILE) + ".next");
        assertFalse(Files.exists(prepared), "prepared on the preparer, not by the writer");
        preparer.remove(0).run();
        assertEquals(ConsumeQueueEntryDescriptor.position(PER_FILE), Files.size(prepared));
        Object inode = Files.getAttribute(prepared, "unix:ino");
        for (int i = PER_FILE / 2; i <= PER_FILE; i++) {
            assertTrue(queue.put(i, (long) i * RECORD, RECORD, i));
        }
        Path second = dir.resolve(MappedFile.name(PER_FILE));
        assertFalse(Files.exists(prepared));
        assertEquals(inode, Files.getAttribute(second, "unix:ino"), "the prepared file was renamed into place");
        assertEquals(new ConsumeQueueEntry(PER_FILE, (long) PER_FILE * RECORD, RECORD, PER_FILE),
                queue.read(PER_FILE, 1).get(0));
        assertEquals(0, preparer.size(), "the next one waits for this one to be half full");
    }

    @Test
    void aPreparedFileThatVanishedIsCreatedByTheWriter() {
        ConsumeQueue queue = new ConsumeQueue(dir, PER_FILE, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        for (int i = 0; i < PER_FILE / 2; i++) {
            queue.put(i, (long) i * RECORD, RECORD, i);
        }
        MappedFile.deleteQuietly(dir.resolve(MappedFile.name(PER_FILE) + ".next"));
        putsAfterTheFirstHalfAllLand(queue);
    }

    @Test
    void aPreparerThatTakesNoWorkLeavesTheFilesToTheWriter() {
        ConsumeQueue queue = new ConsumeQueue(dir, PER_FILE, 0, task -> {
            throw new java.util.concurrent.RejectedExecutionException("stopped");
        }, FirstFilePool.none(), ForceRecorder.NONE);
        for (int i = 0; i < PER_FILE / 2; i++) {
            queue.put(i, (long) i * RECORD, RECORD, i);
        }
        putsAfterTheFirstHalfAllLand(queue);
    }

    private static void putsAfterTheFirstHalfAllLand(ConsumeQueue queue) {
        for (int i = PER_FILE / 2; i < 3 * PER_FILE; i++) {
            assertTrue(queue.put(i, (long) i * RECORD, RECORD, i));
        }
        assertEquals(3 * PER_FILE, queue.read(0, 1_000).size());
        assertEquals(new ConsumeQueueEntry(PER_FILE + 1, (PER_FILE + 1L) * RECORD, RECORD, PER_FILE + 1),
                queue.read(PER_FILE + 1, 1).get(0));
    }

    @Test
    void deletingOrClosingAQueueDeletesItsPreparedFile() throws Exception {
        ConsumeQueue deleted = filled(PER_FILE / 2);
        assertTrue(Files.exists(dir.resolve(MappedFile.name(PER_FILE) + ".next")));
        deleted.deleteAll();
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList());
        }
        ConsumeQueue closed = filled(PER_FILE / 2);
        closed.close();
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(dir.resolve(MappedFile.name(0))), left.toList());
        }
    }
}
