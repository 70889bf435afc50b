package io.ramjet.provider.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The pauses of one failover's asking again, until its deadline: {@value #FIRST_MILLIS} ms
 * doubling up to {@value #MAX_MILLIS} ms, so a master that is gone or starting is not asked in a
 * tight loop. The maximum bounds how long after the NameServers name a group's new master its
 * clients find it: an election takes about one controller lease, so a longer pause would add a
 * good part of that to every failover, while a client asks the NameServers at most ten times a
 * second, and only while its group has no master. Thread-safe.
 */
final class Backoff {

    static final long FIRST_MILLIS = 50;
    static final long MAX_MILLIS = 100;

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

    /** Completes after the next pause ({@link #nextPauseMillis}). */
    CompletableFuture<Void> pause() {
        return CompletableFuture.runAsync(() -> { },
                CompletableFuture.delayedExecutor(nextPauseMillis(), TimeUnit.MILLISECONDS));
    }

    /** The length of the next pause, each twice the one before up to the maximum. */
    synchronized long nextPauseMillis() {
        long pause = nextMillis;
        nextMillis = Math.min(MAX_MILLIS, nextMillis * 2);
        return pause;
    }
}
