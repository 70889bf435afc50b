package io.ramjet.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts a closed store back to a CommitLog offset: what a replica does before it fetches from a
 * new master whose log differs from its own past that offset (a tail written under an older
 * epoch). The CommitLog is zeroed from the offset and later segments deleted; a checkpoint past
 * the offset is moved back to it, so the next {@link MessageStore#open} cuts the ConsumeQueue
 * entries pointing past it and scans from there, as after a crash.
 *
 * <p>On disk: the CommitLog, the checkpoint. Threading: one caller, with no store open on the
 * directory (the store's lock file is taken meanwhile). After a crash during truncation: the
 * checkpoint is moved before the log is cut, so running it again finishes the job.
 */
public final class StoreTruncation {

    private static final Logger LOG = LoggerFactory.getLogger(StoreTruncation.class);

    private StoreTruncation() {
    }

    /**
     * Cuts the store in {@code config}'s directory at {@code offset}, which must be where a
     * record starts (or the end of the log).
     *
     * @throws StoreException if a store has the directory open
     */
    public static void truncate(StoreConfig config, long offset) {
        Path lockPath = config.directory().resolve("lock");
        try (FileChannel channel = OwnerOnly.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = channel.tryLock()) {
            if (lock == null) {
                throw new StoreException(config.directory() + " is in use: it cannot be truncated");
            }
            cut(config, offset);
        } catch (IOException | OverlappingFileLockException e) {
            throw new StoreException("cannot lock " + config.directory() + " to truncate it", e);
        }
    }

    /** Where the store's intact CommitLog ends, as its next open will find it; with no store open on it. */
    public static long logEnd(StoreConfig config) {
        CommitLog log = new CommitLog(config.directory().resolve("commitlog"), config.segmentSize(),
                config.minFreeSpace(), config.forceRecorder());
        try {
            return log.intactEnd(new CheckpointFile(config.directory(), config.forceRecorder()).read().orElse(log.minOffset()));
        } finally {
            log.close();
        }
    }

    /**
     * Drops the checkpoint, so the next open scans the whole retained log: for a caller that
     * discards state of its own built from records past a truncation offset.
     */
    public static void forgetCheckpoint(StoreConfig config) {
        new CheckpointFile(config.directory(), config.forceRecorder()).forget();
    }

    private static void cut(StoreConfig config, long offset) {
        CommitLog log = new CommitLog(config.directory().resolve("commitlog"), config.segmentSize(),
                config.minFreeSpace(), config.forceRecorder());
        try {
            CheckpointFile checkpoint = new CheckpointFile(config.directory(), config.forceRecorder());
            OptionalLong saved = checkpoint.read();
            if (saved.isPresent() && saved.getAsLong() > offset) {
                checkpoint.lowerTo(offset);
            }
            log.cutAt(offset);
            LOG.warn("store {} truncated at CommitLog offset {}", config.directory(), offset);
        } finally {
            log.close();
        }
    }
}
