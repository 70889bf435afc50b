package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FirstFilePoolTest {

    private static final int SIZE = 20 * 1024;

    @TempDir
    Path dir;

    private final List<Runnable> preparer = new ArrayList<>();

    private Path pool() {
        return dir.resolve("consumequeue").resolve(".pool");
    }

    private FirstFilePool open(int capacity) {
        return new FirstFilePool(pool(), SIZE, 0, preparer::add, capacity);
    }

    private void runPreparer() {
        List<Runnable> tasks = new ArrayList<>(preparer);
        preparer.clear();
        tasks.forEach(Runnable::run);
    }

    private List<Path> poolFiles() throws Exception {
        try (Stream<Path> files = Files.list(pool())) {
            return files.toList();
        }
    }

    @Test
    void preparesItsCapacityOnThePreparerNotTheCaller() throws Exception {
        FirstFilePool pool = open(3);
        assertEquals(3, preparer.size(), "one task per file");
        assertEquals(0, pool.ready());
        runPreparer();
        assertEquals(3, pool.ready());
        for (Path file : poolFiles()) {
            assertEquals(SIZE, Files.size(file));
        }
    }

    @Test
    void aTakenFileIsRenamedIntoTheQueueDirectoryAndReplaced() throws Exception {
        FirstFilePool pool = open(2);
        runPreparer();
        List<Object> inodes = poolFiles().stream().map(FirstFilePoolTest::inode).toList();
        Path queue = dir.resolve("consumequeue").resolve("Q").resolve("3");
        MappedFile file = pool.take(queue, 42, SIZE);
        assertEquals(queue.resolve(MappedFile.name(42)), file.path());
        assertEquals(42, file.start());
        assertEquals(SIZE, file.size());
        assertTrue(Files.exists(file.path()));
        assertEquals(1, pool.ready());
        assertEquals(1, preparer.size(), "the file taken is replaced on the preparer");
        assertTrue(inodes.contains(inode(file.path())), "renamed, not copied");
        runPreparer();
        assertEquals(2, pool.ready());
        file.close();
    }

    private static Object inode(Path p) {
        try {
            return Files.getAttribute(p, "unix:ino");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aTakenFileForcesTheDirectoriesItChangedWithItsFirstBytes() {
        FirstFilePool pool = open(1);
        runPreparer();
        Path destination = dir.resolve("consumequeue").resolve("Q");
        Path queue = destination.resolve("0");
        MappedFile file = pool.take(queue, 0, SIZE);
        assertEquals(List.of(queue, destination, dir.resolve("consumequeue")), file.unforcedDirectories());
        file.buffer().putLong(0, 7);
        file.force(0, Long.BYTES);
        assertEquals(List.of(), file.unforcedDirectories());
        file.close();
    }

    @Test
    void nothingIsTakenWhenNoFileIsReadyOrTheSizeDiffers() {
        FirstFilePool pool = open(1);
        assertNull(pool.take(dir.resolve("q"), 0, SIZE), "still being prepared");
        runPreparer();
        assertNull(pool.take(dir.resolve("q"), 0, SIZE * 2));
        assertFalse(Files.exists(dir.resolve("q")));
        assertEquals(1, pool.ready());
    }

    @Test
    void openingDeletesWhatACrashLeftInThePool() throws Exception {
        open(2);
        runPreparer();
        Files.writeString(pool().resolve("00000000000000000009.first"), "half written");
        FirstFilePool reopened = open(1);
        assertEquals(List.of(), poolFiles());
        runPreparer();
        assertEquals(1, reopened.ready());
        assertEquals(1, poolFiles().size());
    }

    @Test
    void closingDeletesTheReadyFilesAndPreparesNoMore() throws Exception {
        FirstFilePool pool = open(2);
        runPreparer();
        pool.take(dir.resolve("q"), 0, SIZE).close();
        pool.close();
        runPreparer();
        assertEquals(List.of(), poolFiles());
        assertEquals(0, pool.ready());
        assertNull(pool.take(dir.resolve("r"), 0, SIZE));
    }

    @Test
    void aPreparerThatTakesNoWorkLeavesTheFilesToTheQueues() {
        FirstFilePool pool = new FirstFilePool(pool(), SIZE, 0, task -> {
            throw new java.util.concurrent.RejectedExecutionException("stopped");
        }, 4);
        assertNull(pool.take(dir.resolve("q"), 0, SIZE));
    }
}
