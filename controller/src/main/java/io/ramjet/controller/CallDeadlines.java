package io.ramjet.controller;

import org.apache.ratis.client.retry.ClientRetryEvent;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.util.TimeDuration;

import java.util.concurrent.TimeUnit;

/**
 * The Ratis retry policy of a {@link ControllerClient}: retry after a pause while the call is
 * before its deadline. Ratis's blocking API consults its policy on the calling thread, between
 * attempts that reuse one call id (so the leader's retry cache applies a write once), which is
 * how a client-wide policy sees each call's own deadline. A failed request addressed to one node
 * (a stale read) is not retried here: Ratis does not reopen a connection to a node that is not
 * the leader, so the client reopens it before its next attempt.
 */
final class CallDeadlines implements RetryPolicy {

    private final ThreadLocal<Long> deadline = new ThreadLocal<>();
    private final TimeDuration pause;

    CallDeadlines(long pauseMillis) {
        this.pause = TimeDuration.valueOf(pauseMillis, TimeUnit.MILLISECONDS);
    }

    /** The calling thread's calls retry until {@code deadlineNanos} ({@link System#nanoTime()}) until {@link #end}. */
    void begin(long deadlineNanos) {
        deadline.set(deadlineNanos);
    }

    void end() {
        deadline.remove();
    }

    /** Whether an attempt begun after a pause would still begin before the calling thread's deadline. */
    boolean timeLeft() {
        Long until = deadline.get();
        return until != null && until - System.nanoTime() - pause.toLong(TimeUnit.NANOSECONDS) > 0;
    }

    TimeDuration pause() {
        return pause;
    }

    @Override
    public Action handleAttemptFailure(Event event) {
        boolean toOneNode = event instanceof ClientRetryEvent failed && !failed.getRequest().isToLeader();
        return timeLeft() && !(toOneNode && event.getCause() != null) ? () -> pause : NO_RETRY_ACTION;
    }

    @Override
    public String toString() {
        return "CallDeadlines{pause=" + pause + "}";
    }
}
