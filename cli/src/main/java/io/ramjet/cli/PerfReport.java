package io.ramjet.cli;

import org.HdrHistogram.Histogram;

/**
 * The outcome of a {@code perf} run, as printed: rates in messages per second, latencies in
 * microseconds from a producer's send call to a consumer's receipt (one JVM, one clock).
 *
 * @param stale messages of an earlier run found on the queue and consumed, not counted otherwise
 */
record PerfReport(String queue, boolean persistent, int size, int producers, int consumers, int transactedBatch,
                  long sent, long received, long lost, long duplicated, long stale, double sendSeconds,
                  double sendRate, double receiveSeconds, double receiveRate, Latency latencyMicros) {

    /** End-to-end latency percentiles, microseconds. */
    record Latency(long p50, long p90, long p99, long p999, long max, double mean) {

        static Latency of(Histogram h) {
            return new Latency(h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                    h.getValueAtPercentile(99.9), h.getMaxValue(), Math.round(h.getMean() * 10) / 10.0);
        }
    }

    String human() {
        return String.format("queue %s, %s, %d bytes, %d producer(s), %d consumer(s), %s%n"
                        + "sent     %d in %.2f s: %.0f msg/s%n"
                        + "received %d in %.2f s: %.0f msg/s%n"
                        + "lost %d, duplicated %d, stale %d%n"
                        + "latency (us) p50 %d, p90 %d, p99 %d, p99.9 %d, max %d, mean %.1f",
                queue, persistent ? "persistent" : "non-persistent", size, producers, consumers,
                transactedBatch == 0 ? "not transacted" : "transacted, " + transactedBatch + " per commit",
                sent, sendSeconds, sendRate, received, receiveSeconds, receiveRate, lost, duplicated, stale,
                latencyMicros.p50(), latencyMicros.p90(), latencyMicros.p99(), latencyMicros.p999(),
                latencyMicros.max(), latencyMicros.mean());
    }
}
