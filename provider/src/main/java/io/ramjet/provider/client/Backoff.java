package io.ramjet.provider.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The pauses of one failover's asking again, until its deadline: {@value #FIRST_MILLIS} ms
 * doubling up to {@value #MAX_MILLIS} ms, so a master that is gone or starting is not asked in a
 * tight loop. Thread-safe.
 */
final class Backoff {

    private static final long FIRST_MILLIS = 50;
    private static final long MAX_MILLIS = 400;

    private final long deadlineNanos;
    private long nextMillis = FIRST_MILLIS;

    /** Pauses for attempts until {@code timeoutMillis} from now. */
    Backoff(long timeoutMillis) {
        this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /** Whether the deadline passed: no attempt is to start any more. */
    boolean expired() {
        return System.nanoTime() - deadlineNanos > 0;
    }

    /** Completes after the next pause, each twice the one before up to the maximum. */
    CompletableFuture<Void> pause() {
        long pause;
        synchronized (this) {
            pause = nextMillis;
            nextMillis = Math.min(MAX_MILLIS, nextMillis * 2);
        }
        return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS));
    }
}
