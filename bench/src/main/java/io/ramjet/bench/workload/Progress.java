package io.ramjet.bench.workload;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Waiting for a count that callbacks raise, failing only when it stops moving. */
public final class Progress {

    /** How long a count may stand still before the wait gives up. */
    public static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(30);

    private Progress() {
    }

    /**
     * Waits until {@code counter} reaches {@code target}.
     *
     * @throws IllegalStateException naming {@code what} if it stands still for 30 s
     */
    public static void awaitCount(AtomicLong counter, long target, String what) throws InterruptedException {
        long last = counter.get();
        long lastProgress = System.nanoTime();
        while (counter.get() < target) {
            Thread.sleep(5);
            long now = counter.get();
            if (now != last) {
                last = now;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > STALL_NANOS) {
                throw new IllegalStateException(what + " stalled after " + now + " of " + target);
            }
        }
    }
}
