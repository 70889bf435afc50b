package io.ramjet.provider.jms;

import java.util.concurrent.TimeUnit;

/**
 * Whether a consumer's application is taking messages: it is while a thread is in
 * {@code receive} or a listener is set, and for {@code idleMillis} after a receive returns (or
 * the consumer opens, or its listener is removed), so that an application taking message after
 * message keeps its prefetch between two calls. After that it is idle: its consumer takes
 * nothing in and gives back what it holds, so that a message waits for a consumer that asks for
 * it rather than with one that does not. The check runs on the connection's timer, at most once
 * per {@code idleMillis} per consumer, not per message. Thread-safe.
 */
final class ApplicationDemand {

    private final long idleNanos;
    private final ConnectionTimer timer;
    /** Run on the timer thread each time the application becomes idle. */
    private final Runnable wentIdle;
    /** Run on the application's thread each time an idle application asks again. */
    private final Runnable asksAgain;
    private int receiving;
    private boolean listening;
    private long lastAsked;
    private boolean checkScheduled;
    private boolean closed;
    private volatile boolean idle;

    /**
     * @param idleMillis how long after its last receive an application without a listener is idle
     * @param timer      where the check runs
     * @param wentIdle   gives back what the consumer holds; runs on the timer thread
     * @param asksAgain  lets the consumer take messages in again; runs on the thread that asks
     */
    ApplicationDemand(long idleMillis, ConnectionTimer timer, Runnable wentIdle, Runnable asksAgain) {
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
        this.timer = timer;
        this.wentIdle = wentIdle;
        this.asksAgain = asksAgain;
    }

    /** The consumer opened: as if the application had just asked. */
    synchronized void start() {
        lastAsked = System.nanoTime();
        scheduleCheck();
    }

    /** Whether the consumer is to take nothing in and hold nothing. */
    boolean idle() {
        return idle;
    }

    /** A thread enters {@code receive} (or {@code receiveNoWait}). */
    void enterReceive() {
        boolean woke;
        synchronized (this) {
            receiving++;
            woke = idle;
            idle = false;
        }
        if (woke) {
            asksAgain.run();
        }
    }

    /** A thread leaves {@code receive}. */
    synchronized void leaveReceive() {
        receiving--;
        lastAsked = System.nanoTime();
        scheduleCheck();
    }

    /** A listener was set ({@code true}) or removed. */
    void listening(boolean on) {
        boolean woke;
        synchronized (this) {
            listening = on;
            woke = on && idle;
            if (on) {
                idle = false;
            } else {
                lastAsked = System.nanoTime();
                scheduleCheck();
            }
        }
        if (woke) {
            asksAgain.run();
        }
    }

    /** The consumer closed: no more checks. */
    synchronized void close() {
        closed = true;
    }

    private void scheduleCheck() {
        if (!checkScheduled && !closed) {
            checkScheduled = true;
            timer.schedule(this::check, TimeUnit.NANOSECONDS.toMillis(idleNanos) + 1);
        }
    }

    private void check() {
        synchronized (this) {
            checkScheduled = false;
            if (closed || idle || receiving > 0 || listening) {
                return; // leaving receive or removing the listener schedules the next check
            }
            long quiet = System.nanoTime() - lastAsked;
            if (quiet < idleNanos) {
                checkScheduled = true;
                timer.schedule(this::check, TimeUnit.NANOSECONDS.toMillis(idleNanos - quiet) + 1);
                return;
            }
            idle = true;
        }
        wentIdle.run();
    }
}
