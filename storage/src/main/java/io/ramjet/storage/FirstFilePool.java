package io.ramjet.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ConsumeQueue first files, zero-filled and forced ahead of need, so that a new queue's first
 * message costs the dispatcher a directory and a rename instead of creating its file (zeros, a
 * force, a rename: milliseconds during which nothing else is dispatched, which an application
 * replying to a new temporary queue per request would meet on every reply).
 *
 * <p>On disk: up to {@code capacity} files of one size in a directory of their own, named by a
 * sequence number and {@value #SUFFIX}, which nothing else reads. A file taken is renamed into its
 * queue's directory under its start offset; the directories that changed are forced with the
 * file's first entries ({@link MappedFile#install(Path, Path, List)}).
 *
 * <p>Threading: {@link #take} from the queues' writer (the dispatcher); the files are prepared on
 * the executor given, one task per file, a new one started for each file taken. When none is ready
 * the caller creates the file itself, as before the pool. After a crash: the pool directory is
 * emptied when the pool opens; a file renamed into a queue is that queue's (its directory is
 * forced before any of its entries is reported durable).
 */
final class FirstFilePool {

    private static final Logger LOG = LoggerFactory.getLogger(FirstFilePool.class);
    private static final String SUFFIX = ".first";

    private final Path directory;
    private final int size;
    private final long minFreeSpace;
    private final Executor preparer;
    private final int capacity;
    private final Queue<Path> ready = new ConcurrentLinkedQueue<>();
    /** Files ready or being prepared. */
    private final AtomicInteger owned = new AtomicInteger();
    private final AtomicLong sequence = new AtomicLong();
    private volatile boolean closed;

    /**
     * Empties {@code directory} (what a crash left) and starts preparing {@code capacity} files of
     * {@code size} bytes, each leaving {@code minFreeSpace} usable.
     */
    FirstFilePool(Path directory, int size, long minFreeSpace, Executor preparer, int capacity) {
        this.directory = directory;
        this.size = size;
        this.minFreeSpace = minFreeSpace;
        this.preparer = preparer;
        this.capacity = capacity;
        if (capacity > 0) {
            deleteLeftovers();
            fill();
        }
    }

    /** A pool that never holds a file: every queue creates its first file itself. */
    static FirstFilePool none() {
        return new FirstFilePool(null, 0, 0, Runnable::run, 0);
    }

    /**
     * A prepared first file of {@code size} bytes, renamed to {@code start}'s name in
     * {@code queueDirectory} (created if missing) and mapped; null when none of that size is
     * ready, so the caller creates it.
     */
    MappedFile take(Path queueDirectory, long start, int size) {
        if (size != this.size) {
            return null;
        }
        Path file = ready.poll();
        if (file == null) {
            return null;
        }
        owned.decrementAndGet();
        fill();
        List<Path> changed = MappedFile.createDirectories(queueDirectory);
        return MappedFile.install(file, queueDirectory.resolve(MappedFile.name(start)), changed);
    }

    /** How many files are ready to be taken. */
    int ready() {
        return ready.size();
    }

    /** Deletes the ready files and prepares no more. */
    void close() {
        closed = true;
        for (Path file = ready.poll(); file != null; file = ready.poll()) {
            MappedFile.deleteQuietly(file);
        }
    }

    private void fill() {
        for (int n = owned.get(); n < capacity && !closed; n = owned.get()) {
            if (!owned.compareAndSet(n, n + 1)) {
                continue;
            }
            try {
                preparer.execute(this::prepareOne);
            } catch (RejectedExecutionException e) {
                owned.decrementAndGet();
                return;
            }
        }
    }

    private void prepareOne() {
        Path file;
        try {
            file = MappedFile.prepare(directory, sequence.getAndIncrement(), size, minFreeSpace, SUFFIX);
        } catch (StoreException e) {
            // tried again when a file is next taken: a full disk does not spin the preparer
            owned.decrementAndGet();
            LOG.debug("no first file prepared in {}: {}", directory, e.getMessage());
            return;
        }
        ready.add(file);
        if (closed) {
            close();
        }
    }

    private void deleteLeftovers() {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
        } catch (NoSuchFileException e) {
            // nothing left
        } catch (IOException e) {
            throw new StoreException("cannot empty " + directory, e);
        }
    }
}
