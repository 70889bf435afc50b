package io.ramjet.cli;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the consumers of a {@code perf} run saw: which of each producer's messages arrived (so a
 * message that never came is lost and one that came twice a duplicate) and the end-to-end latency
 * of each first arrival. Thread-safe: consumers record concurrently.
 */
final class PerfTally {

    private final BitSet[] seen;
    private final Histogram latencyMicros = new ConcurrentHistogram(3);
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong duplicated = new AtomicLong();
    private final AtomicLong lastArrivalNanos = new AtomicLong();

    PerfTally(int producers) {
        seen = new BitSet[producers];
        for (int p = 0; p < producers; p++) {
            seen[p] = new BitSet();
        }
    }

    /** Records the arrival of message {@code sequence} of producer {@code producer}, sent at {@code sentNanos}. */
    void arrived(int producer, int sequence, long sentNanos) {
        long now = System.nanoTime();
        lastArrivalNanos.accumulateAndGet(now, Math::max);
        BitSet bits = seen[producer];
        boolean first;
        synchronized (bits) {
            first = !bits.get(sequence);
            bits.set(sequence);
        }
        if (first) {
            received.incrementAndGet();
            latencyMicros.recordValue(Math.max(0, (now - sentNanos) / 1_000));
        } else {
            duplicated.incrementAndGet();
        }
    }

    /** Distinct messages received. */
    long received() {
        return received.get();
    }

    long duplicated() {
        return duplicated.get();
    }

    /** {@link System#nanoTime()} of the last arrival, 0 before the first. */
    long lastArrivalNanos() {
        return lastArrivalNanos.get();
    }

    Histogram latencyMicros() {
        return latencyMicros;
    }
}
