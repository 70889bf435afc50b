package io.ramjet.storage;

import java.util.concurrent.atomic.LongAdder;

/**
 * Cumulative counts of the CommitLog's forces since the store opened, for monitoring: how many
 * forces wrote something, how long they took, and how many durable appends they completed (the
 * group-commit batch size is the ratio of the last two). Written by the flush thread, read by
 * any; nothing on disk.
 */
public final class FlushStatistics {

    private final LongAdder forces = new LongAdder();
    private final LongAdder forceNanos = new LongAdder();
    private final LongAdder waitersCompleted = new LongAdder();
    private volatile ForceListener listener = (nanos, waiters) -> { };
    private volatile long lastForceNanos;

    /** Told of each force that wrote something, on the flush thread: it must return quickly. */
    @FunctionalInterface
    public interface ForceListener {
        void forced(long nanos, int waiters);
    }

    void forced(long nanos, int waiters) {
        forces.increment();
        forceNanos.add(nanos);
        lastForceNanos = nanos;
        waitersCompleted.add(waiters);
        listener.forced(nanos, waiters);
    }

    /** Tells {@code listener}, instead of the one before, of every force from now on. */
    public void listen(ForceListener listener) {
        this.listener = listener;
    }

    /** Forces that wrote something. */
    public long forces() {
        return forces.sum();
    }

    /** Time spent in those forces, in nanoseconds. */
    public long forceNanos() {
        return forceNanos.sum();
    }

    /** How long the last force that wrote something took, in nanoseconds; 0 before the first. */
    public long lastForceNanos() {
        return lastForceNanos;
    }

    /** Appends that waited for durability and were completed by a force. */
    public long waitersCompleted() {
        return waitersCompleted.sum();
    }
}
