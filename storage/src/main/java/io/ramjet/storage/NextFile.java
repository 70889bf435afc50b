package io.ramjet.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The next file of a sequence of {@link MappedFile}s (CommitLog segments, one ConsumeQueue's
 * files), zero-filled and forced ahead of need on a preparer thread under a name that
 * {@link MappedFile#list} discards, so that the writer that reaches it only renames and maps it
 * instead of filling it under its own appends. At most one file is prepared at a time.
 *
 * <p>Threading: the owner's writer thread (or its opening or closing thread, one at a time), but
 * {@link #ready} from any thread; the preparation runs on the executor given. After a crash: a prepared file was never renamed, and
 * the next {@link MappedFile#list} of its directory deletes it.
 */
final class NextFile {

    private static final Logger LOG = LoggerFactory.getLogger(NextFile.class);
    private static final String SUFFIX = ".next";

    private final Path directory;
    private final Executor preparer;
    private volatile long start = -1;
    private volatile CompletableFuture<Path> prepared;

    NextFile(Path directory, Executor preparer) {
        this.directory = directory;
        this.preparer = preparer;
    }

    /** Whether a file is being prepared or waits to be taken. */
    boolean pending() {
        return prepared != null;
    }

    /**
     * Whether the file for {@code start} is prepared or being prepared, the disk having had room
     * for it when preparation began (checked before {@link #prepare} returns). Any thread: the
     * answer may be stale.
     */
    boolean ready(long start) {
        CompletableFuture<Path> file = prepared;
        return file != null && this.start == start && !file.isCompletedExceptionally();
    }

    /**
     * Starts preparing the file for {@code start} of {@code size} bytes, leaving {@code minFreeSpace}
     * usable; nothing if the preparer takes no more work (the writer then creates the file itself).
     * Without room for it, the preparation fails at once (the writer meets that in {@link #take}).
     */
    void prepare(long start, int size, long minFreeSpace) {
        discard();
        try {
            if (Files.isDirectory(directory)) {
                MappedFile.checkRoom(directory, start, size, minFreeSpace, SUFFIX);
            }
        } catch (IOException | StoreFullException e) {
            this.start = start;
            prepared = CompletableFuture.failedFuture(e);
            return;
        }
        try {
            this.start = start;
            prepared = CompletableFuture.supplyAsync(
                    () -> MappedFile.prepare(directory, start, size, minFreeSpace, SUFFIX), preparer);
        } catch (RejectedExecutionException e) {
            LOG.debug("preparer of {} stopped: {} not prepared", directory, MappedFile.name(start));
        }
    }

    /**
     * The prepared file for {@code start}, renamed and mapped, waiting for it if it is still being
     * prepared; null if none was prepared for {@code start} (another one is discarded) or its
     * preparation failed, so the caller creates it.
     */
    MappedFile take(long start) {
        if (prepared == null) {
            return null;
        }
        if (this.start != start) {
            discard();
            return null;
        }
        CompletableFuture<Path> ready = prepared;
        prepared = null;
        try {
            return MappedFile.install(ready.join());
        } catch (CompletionException | StoreException e) {
            LOG.warn("preparing {} in {} failed: creating it now", MappedFile.name(start), directory,
                    e instanceof CompletionException ? e.getCause() : e);
            return null;
        }
    }

    /** Waits until the file being prepared is ready (or failed, which is left for {@link #take} to meet). */
    void await() {
        if (prepared != null) {
            try {
                prepared.join();
            } catch (CompletionException e) {
                LOG.warn("preparing {} in {} failed", MappedFile.name(start), directory, e.getCause());
            }
        }
    }

    /** Deletes the prepared file, once its preparation is over (waiting for it). */
    void discard() {
        if (prepared == null) {
            return;
        }
        CompletableFuture<Path> dropped = prepared;
        prepared = null;
        try {
            MappedFile.deleteQuietly(dropped.join());
        } catch (CompletionException e) {
            // nothing was left on disk
        }
    }
}
