package io.ramjet.reliability;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/** Polling for a condition with a deadline, in short steps: no test waits a fixed time. */
final class Await {

    private static final long STEP_NANOS = Duration.ofMillis(50).toNanos();

    private Await() {
    }

    /** @return whether {@code condition} held before {@code timeout} passed */
    static boolean until(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(STEP_NANOS);
        }
        return true;
    }

    /**
     * Waits until {@code value} has not changed for {@code quiet}, at most {@code timeout}: a
     * count of deliveries that has settled.
     *
     * @return whether it settled
     */
    static boolean settled(Duration quiet, Duration timeout, LongSupplier value) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = value.getAsLong();
        long since = System.nanoTime();
        while (System.nanoTime() - since < quiet.toNanos()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(STEP_NANOS);
            long now = value.getAsLong();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            }
        }
        return true;
    }
}
