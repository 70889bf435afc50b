package io.ramjet.bench.workload;

import java.time.Duration;

/**
 * What one run measures: message size, the counts of each workload (the full counts times
 * {@code scale}), threads, the latency run, how many timed rounds each row gets, the brokers'
 * heap, Ramjet's CommitLog segment size in MiB (0: the standalone default), Artemis's journal
 * buffer timeout in nanoseconds (0: measured when the peer starts) and how long a timed round may
 * wait for the machine to settle ({@link QuietMachine}; zero: no settling), and workload 6's
 * subscribers (durable ones with persistent messages, or not durable with non-persistent ones).
 */
public record BenchConfig(int size, double scale, int producers, int consumers, int latencyRate,
                          Duration latencyDuration, int rounds, String heap, int ramjetSegmentMiB,
                          long artemisBufferTimeoutNanos, Duration settle, int subscribers,
                          boolean durableSubscribers) {

    /** Workloads 1 to 3: messages sent per row. */
    public static final long SEND_COUNT = 200_000;
    /** Workload 3: messages sent in the one large transaction whose commit is timed. */
    public static final long LARGE_TRANSACTION_COUNT = 1_000_000;
    /** Workload 5: messages stored, a tenth of which the consumer selects. */
    public static final long SELECTOR_COUNT = 100_000;
    /** Workloads 6 and 10: messages sent to the topic of a fan-out row, whatever its subscribers. */
    public static final long FAN_OUT_COUNT = 100_000;
    /** Workload 7: messages stored, then drained. */
    public static final long BACKLOG_COUNT = 2_000_000;
    /** The share of the latency run that warms workload 4 up before it is timed. */
    private static final double LATENCY_WARM_UP_SHARE = 1.0 / 3;
    /** The share of the timed counts that warms a workload up at least. */
    private static final double WARM_UP_SHARE = 0.1;
    /** The share of the full counts that warms a workload up, at most twice the timed counts. */
    private static final double WARM_UP_FULL_SHARE = 0.2;
    public static final int GROUPS = 100;
    public static final long GROUP_MESSAGES = 1_000;
    public static final int GROUP_CONSUMERS = 4;
    /** Workload 9: queues created, one persistent message each. */
    public static final long DESTINATIONS = 10_000;
    /** Workload 10: the bytes each sized send row moves at most (so 1 MiB messages are fewer). */
    public static final long SIZED_BYTES = 2L << 30;
    /** Workload 11: the bytes each message size's send and drain move (100 of 10 MiB, 10 of 100 MiB). */
    public static final long LARGE_BYTES = 1_000L << 20;
    /** Workload 9: temporary queues created and deleted. */
    public static final long TEMPORARY_QUEUES = 2_000;

    public BenchConfig {
        if (size < 0 || scale <= 0 || producers < 1 || consumers < 1 || latencyRate < 1 || rounds < 1
                || settle.isNegative() || subscribers < 1) {
            throw new IllegalArgumentException(
                    "size >= 0, count > 0, producers, consumers, subscribers, rate and rounds >= 1, settle >= 0 please");
        }
    }

    /** A named count scaled by {@code --count}, at least 10. */
    public long scaled(long count) {
        return scaled(count, scale);
    }

    /** {@code count} scaled by {@code scale} as a run at that {@code --count} scales it, at least 10. */
    public static long scaled(long count, double scale) {
        long n = Math.max(10, Math.round(count * scale));
        return n % 7_919 == 0 ? n + 1 : n;
    }

    /** Workload 11's messages of {@code size} bytes: {@link #LARGE_BYTES} scaled by {@code --count}, at least 1. */
    public long largeCount(int size) {
        return Math.max(1, Math.round(LARGE_BYTES / size * scale));
    }

    /**
     * The run that warms a workload up on a peer before its timed rounds: the same paths (sends,
     * selectors, transactions, listeners, topics) at a fifth of the full counts (40,000 sends of
     * workload 1), at most twice the timed counts (so a smoke run stays short), or at a tenth of
     * the timed counts when that is more, and at a third of the latency run (at least a second),
     * once. Why that much: a client JVM reaches its steady drain rate only after tens of
     * thousands of messages, its compiler threads taking half its CPU meanwhile, so a warm-up of a
     * tenth of the scaled counts left a drain timed half cold; and a cold client's first seconds
     * at the latency run's rate are spent on its own backlog, which a third of the run outlasts.
     */
    public BenchConfig warmUp() {
        Duration latency = Duration.ofMillis(
                Math.max(1_000, (long) (latencyDuration.toMillis() * LATENCY_WARM_UP_SHARE)));
        double warmScale = Math.max(scale * WARM_UP_SHARE, Math.min(WARM_UP_FULL_SHARE, 2 * scale));
        return new BenchConfig(size, warmScale, producers, consumers, latencyRate, latency, 1, heap,
                ramjetSegmentMiB, artemisBufferTimeoutNanos, settle, subscribers, durableSubscribers);
    }

    /**
     * The warm-up of a smoke run: every path of the workload once, at a tenth of the timed counts
     * (each at least 10) and a second of the latency run. A smoke run checks the harness, not
     * speed, so its warm-up need not warm anything; at {@link #warmUp}'s counts (twice the timed
     * ones) it would take most of the run.
     */
    public BenchConfig smokeWarmUp() {
        return new BenchConfig(size, scale * WARM_UP_SHARE, producers, consumers, latencyRate, Duration.ofSeconds(1), 1,
                heap, ramjetSegmentMiB, artemisBufferTimeoutNanos, settle, subscribers, durableSubscribers);
    }
}
