package io.ramjet.storage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link MessageStore} is laid out and flushed. A value: pass it in, change it with the
 * {@code with} methods, which return a copy.
 *
 * @param directory                  where the store keeps its files
 * @param segmentSize                bytes per CommitLog segment file
 * @param consumeQueueEntriesPerFile entries per ConsumeQueue file
 * @param flushPolicy                whether durable appends wait for a force
 * @param flushInterval              period of the background flush
 * @param checkpointInterval         period of the checkpoint
 * @param minFreeSpace               usable disk bytes that must remain after creating a CommitLog
 *                                   segment for a message; a segment for a control record and a
 *                                   ConsumeQueue file need only a quarter of it (the reserve that
 *                                   lets consumers drain a full disk)
 * @param maxRecordSize              largest record accepted, at most {@code segmentSize}
 */
public record StoreConfig(Path directory, int segmentSize, int consumeQueueEntriesPerFile,
                          FlushPolicy flushPolicy, Duration flushInterval, Duration checkpointInterval,
                          long minFreeSpace, int maxRecordSize) {

    public static final int DEFAULT_SEGMENT_SIZE = 1 << 30;
    public static final int DEFAULT_ENTRIES_PER_FILE = 300_000;
    public static final int DEFAULT_MAX_RECORD_SIZE = 4 << 20;
    public static final long DEFAULT_MIN_FREE_SPACE = 256L << 20;

    public StoreConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(flushPolicy, "flushPolicy");
        Objects.requireNonNull(flushInterval, "flushInterval");
        Objects.requireNonNull(checkpointInterval, "checkpointInterval");
        if (segmentSize < 4096) {
            throw new IllegalArgumentException("segmentSize " + segmentSize + " below 4096");
        }
        if (consumeQueueEntriesPerFile < 1) {
            throw new IllegalArgumentException("consumeQueueEntriesPerFile " + consumeQueueEntriesPerFile);
        }
        if (maxRecordSize < 1 || maxRecordSize > segmentSize) {
            throw new IllegalArgumentException("maxRecordSize " + maxRecordSize + " not in [1, segmentSize]");
        }
        if (flushInterval.isNegative() || flushInterval.isZero()
                || checkpointInterval.isNegative() || checkpointInterval.isZero()) {
            throw new IllegalArgumentException("intervals must be positive");
        }
        if (minFreeSpace < 0) {
            throw new IllegalArgumentException("minFreeSpace " + minFreeSpace);
        }
    }

    /** 1 GiB segments, sync group commit, a flush every 200 ms and a checkpoint every second. */
    public static StoreConfig defaults(Path directory) {
        return new StoreConfig(directory, DEFAULT_SEGMENT_SIZE, DEFAULT_ENTRIES_PER_FILE,
                FlushPolicy.SYNC_GROUP_COMMIT, Duration.ofMillis(200), Duration.ofSeconds(1),
                DEFAULT_MIN_FREE_SPACE, DEFAULT_MAX_RECORD_SIZE);
    }

    /** Also lowers {@code maxRecordSize} to the new size if it was larger. */
    public StoreConfig withSegmentSize(int size) {
        return new StoreConfig(directory, size, consumeQueueEntriesPerFile, flushPolicy, flushInterval,
                checkpointInterval, minFreeSpace, Math.min(maxRecordSize, size));
    }

    public StoreConfig withConsumeQueueEntriesPerFile(int entries) {
        return new StoreConfig(directory, segmentSize, entries, flushPolicy, flushInterval,
                checkpointInterval, minFreeSpace, maxRecordSize);
    }

    public StoreConfig withFlushPolicy(FlushPolicy policy) {
        return new StoreConfig(directory, segmentSize, consumeQueueEntriesPerFile, policy, flushInterval,
                checkpointInterval, minFreeSpace, maxRecordSize);
    }

    public StoreConfig withFlushInterval(Duration interval) {
        return new StoreConfig(directory, segmentSize, consumeQueueEntriesPerFile, flushPolicy, interval,
                checkpointInterval, minFreeSpace, maxRecordSize);
    }

    public StoreConfig withCheckpointInterval(Duration interval) {
        return new StoreConfig(directory, segmentSize, consumeQueueEntriesPerFile, flushPolicy, flushInterval,
                interval, minFreeSpace, maxRecordSize);
    }

    public StoreConfig withMinFreeSpace(long bytes) {
        return new StoreConfig(directory, segmentSize, consumeQueueEntriesPerFile, flushPolicy, flushInterval,
                checkpointInterval, bytes, maxRecordSize);
    }

    public StoreConfig withMaxRecordSize(int bytes) {
        return new StoreConfig(directory, segmentSize, consumeQueueEntriesPerFile, flushPolicy, flushInterval,
                checkpointInterval, minFreeSpace, bytes);
    }
}
