package io.ramjet.controller;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Waits for a condition held by other processes or Raft terms, which offer no event to latch on:
 * checks every 25 ms until the deadline, then fails with the last value seen.
 */
final class Eventually {

    private Eventually() {
    }

    static <T> T await(Duration timeout, Callable<T> probe, Predicate<T> done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object last = null;
        while (System.nanoTime() < deadline) {
            try {
                T value = probe.call();
                if (done.test(value)) {
                    return value;
                }
                last = value;
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(25);
        }
        return fail(what + " within " + timeout + "; last seen: " + last);
    }
}
