package io.ramjet.storage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link MessageStore} is laid out and flushed. A value: build it with {@link #builder(Path)}
 * (or {@link #toBuilder()} to change a copy); the {@code with} methods are shorthands for one key.
 *
 * @param directory                  where the store keeps its files
 * @param segmentSize                bytes per CommitLog segment file
 * @param consumeQueueEntriesPerFile entries per ConsumeQueue file
 * @param flushPolicy                whether durable appends wait for a force
 * @param flushInterval              period of the background flush
 * @param checkpointInterval         period of the checkpoint
 * @param retentionInterval          how often the owner of the store looks for CommitLog segments
 *                                   nothing needs any more (consumed, no transaction, no large
 *                                   message or delayed message in them) and deletes them
 * @param minFreeSpace               usable disk bytes that must remain after creating a CommitLog
 *                                   segment for a message; a segment for a control record and a
 *                                   ConsumeQueue file need only a quarter of it (the reserve that
 *                                   lets consumers drain a full disk)
 * @param maxRecordSize              largest record accepted, at most {@code segmentSize}
 * @param forceRecorder              told of every completed force of the store's files (and of the
 *                                   broker's beside them): {@link ForceRecorder#NONE} but in tests
 *                                   that simulate a power cut
 */
public record StoreConfig(Path directory, int segmentSize, int consumeQueueEntriesPerFile,
                          FlushPolicy flushPolicy, Duration flushInterval, Duration checkpointInterval,
                          Duration retentionInterval, long minFreeSpace, int maxRecordSize, ForceRecorder forceRecorder) {

    public static final int DEFAULT_SEGMENT_SIZE = 1 << 30;
    public static final int DEFAULT_ENTRIES_PER_FILE = 300_000;
    public static final int DEFAULT_MAX_RECORD_SIZE = 4 << 20;
    public static final long DEFAULT_MIN_FREE_SPACE = 256L << 20;
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofMillis(200);
    /**
     * Ten seconds: each checkpoint forces the ConsumeQueues written since the last one and writes
     * the broker's snapshot, which every second set the send latency's p99.9; recovery after a
     * crash replays at most this much of the log.
     */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    /** Ten seconds, as RocketMQ's {@code cleanResourceInterval}: a scan reads every subscription's offset. */
    public static final Duration DEFAULT_RETENTION_INTERVAL = Duration.ofSeconds(10);

    public StoreConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(flushPolicy, "flushPolicy");
        Objects.requireNonNull(flushInterval, "flushInterval");
        Objects.requireNonNull(checkpointInterval, "checkpointInterval");
        Objects.requireNonNull(retentionInterval, "retentionInterval");
        Objects.requireNonNull(forceRecorder, "forceRecorder");
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
                || checkpointInterval.isNegative() || checkpointInterval.isZero()
                || retentionInterval.isNegative() || retentionInterval.isZero()) {
            throw new IllegalArgumentException("intervals must be positive");
        }
        if (minFreeSpace < 0) {
            throw new IllegalArgumentException("minFreeSpace " + minFreeSpace);
        }
    }

    /** 1 GiB segments, sync group commit, a flush every 200 ms and a checkpoint every second. */
    public static StoreConfig defaults(Path directory) {
        return builder(directory).build();
    }

    /** The defaults of {@link #defaults(Path)}, to change before {@link Builder#build()}. */
    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /** A builder holding this configuration. */
    public Builder toBuilder() {
        return builder(directory).segmentSize(segmentSize).consumeQueueEntriesPerFile(consumeQueueEntriesPerFile)
                .flushPolicy(flushPolicy).flushInterval(flushInterval).checkpointInterval(checkpointInterval)
                .retentionInterval(retentionInterval).minFreeSpace(minFreeSpace).maxRecordSize(maxRecordSize).forceRecorder(forceRecorder);
    }

    /** Also lowers {@code maxRecordSize} to the new size if it was larger. */
    public StoreConfig withSegmentSize(int size) {
        return toBuilder().segmentSize(size).maxRecordSize(Math.min(maxRecordSize, size)).build();
    }

    public StoreConfig withConsumeQueueEntriesPerFile(int entries) {
        return toBuilder().consumeQueueEntriesPerFile(entries).build();
    }

    public StoreConfig withFlushPolicy(FlushPolicy policy) {
        return toBuilder().flushPolicy(policy).build();
    }

    public StoreConfig withCheckpointInterval(Duration interval) {
        return toBuilder().checkpointInterval(interval).build();
    }

    public StoreConfig withMinFreeSpace(long bytes) {
        return toBuilder().minFreeSpace(bytes).build();
    }

    public StoreConfig withMaxRecordSize(int bytes) {
        return toBuilder().maxRecordSize(bytes).build();
    }

    public StoreConfig withForceRecorder(ForceRecorder recorder) {
        return toBuilder().forceRecorder(recorder).build();
    }

    /**
     * Collects a {@link StoreConfig} key by key; {@link #build()} checks the whole. Not thread-safe.
     * Unless {@code maxRecordSize} is set, it is the default capped at the segment size.
     */
    public static final class Builder {
        private Path directory;
        private int segmentSize = DEFAULT_SEGMENT_SIZE;
        private int consumeQueueEntriesPerFile = DEFAULT_ENTRIES_PER_FILE;
        private FlushPolicy flushPolicy = FlushPolicy.SYNC_GROUP_COMMIT;
        private Duration flushInterval = DEFAULT_FLUSH_INTERVAL;
        private Duration checkpointInterval = DEFAULT_CHECKPOINT_INTERVAL;
        private Duration retentionInterval = DEFAULT_RETENTION_INTERVAL;
        private long minFreeSpace = DEFAULT_MIN_FREE_SPACE;
        private Integer maxRecordSize;
        private ForceRecorder forceRecorder = ForceRecorder.NONE;

        private Builder(Path directory) {
            this.directory = directory;
        }

        public Builder directory(Path dir) {
            this.directory = dir;
            return this;
        }

        public Builder segmentSize(int size) {
            this.segmentSize = size;
            return this;
        }

        public Builder consumeQueueEntriesPerFile(int entries) {
            this.consumeQueueEntriesPerFile = entries;
            return this;
        }

        public Builder flushPolicy(FlushPolicy policy) {
            this.flushPolicy = policy;
            return this;
        }

        public Builder flushInterval(Duration interval) {
            this.flushInterval = interval;
            return this;
        }

        public Builder checkpointInterval(Duration interval) {
            this.checkpointInterval = interval;
            return this;
        }

        public Builder retentionInterval(Duration interval) {
            this.retentionInterval = interval;
            return this;
        }

        public Builder minFreeSpace(long bytes) {
            this.minFreeSpace = bytes;
            return this;
        }

        public Builder maxRecordSize(int bytes) {
            this.maxRecordSize = bytes;
            return this;
        }

        public Builder forceRecorder(ForceRecorder recorder) {
            this.forceRecorder = recorder;
            return this;
        }

        /** @throws IllegalArgumentException naming the setting that is out of range */
        public StoreConfig build() {
            int maxRecord = maxRecordSize != null ? maxRecordSize : Math.min(DEFAULT_MAX_RECORD_SIZE, segmentSize);
            return new StoreConfig(directory, segmentSize, consumeQueueEntriesPerFile, flushPolicy, flushInterval,
                    checkpointInterval, retentionInterval, minFreeSpace, maxRecord, forceRecorder);
        }
    }
}
