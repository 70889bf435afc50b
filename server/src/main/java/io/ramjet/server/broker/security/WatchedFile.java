package io.ramjet.server.broker.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A configuration file read again whenever its modification time or size changes, looked at
 * when {@link #current()} is asked: each time (logins are rare and slow anyway), or at most once
 * per interval for a file asked on every request (permissions). The first read must succeed; a
 * later one that fails (a half-written or malformed file) is logged and the last good content
 * stays in force. Thread-safe.
 *
 * @param <T> what the file parses into
 */
public final class WatchedFile<T> {

    /** Parses the file. */
    public interface Reader<T> {
        T read(Path file) throws IOException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(WatchedFile.class);

    private final Path file;
    private final Reader<T> reader;
    private final long lookEveryNanos;
    private final LongSupplier nanoClock;
    private FileTime modified;
    private long size;
    private volatile T content;
    private volatile long lookedAt;

    /** Reads the file now, and looks at it again on every {@link #current()}. */
    public WatchedFile(Path file, Reader<T> reader) {
        this(file, reader, Duration.ZERO, System::nanoTime);
    }

    /**
     * Reads the file now, and looks at it again on a {@link #current()} that comes at least
     * {@code lookEvery} after the last look (by {@code nanoClock}).
     *
     * @throws UncheckedIOException or IllegalArgumentException when it cannot be read now
     */
    public WatchedFile(Path file, Reader<T> reader, Duration lookEvery, LongSupplier nanoClock) {
        this.file = file;
        this.reader = reader;
        this.lookEveryNanos = lookEvery.toNanos();
        this.nanoClock = nanoClock;
        this.lookedAt = nanoClock.getAsLong();
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            this.content = reader.read(file);
            this.modified = attributes.lastModifiedTime();
            this.size = attributes.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The file's content as of its last good read, reading it again first if it changed. */
    public T current() {
        if (lookEveryNanos > 0 && nanoClock.getAsLong() - lookedAt < lookEveryNanos) {
            return content;
        }
        return look();
    }

    private synchronized T look() {
        lookedAt = nanoClock.getAsLong();
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (attributes.lastModifiedTime().equals(modified) && attributes.size() == size) {
                return content;
            }
            content = reader.read(file);
            modified = attributes.lastModifiedTime();
            size = attributes.size();
            LOG.info("{} changed: read again", file);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} changed but cannot be read ({}): keeping what it said before", file, e.getMessage());
        }
        return content;
    }
}
