package io.ramjet.provider.jms.transaction;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Sends whose answers are awaited later, not one by one: at most {@code limit} unanswered (the
 * next waits for the oldest), every answer awaited at once by {@link #awaitAll}, and the first
 * failure kept for whoever asks. Thread-safe: answers complete on I/O threads.
 */
public final class SendWindow {

    private final int limit;
    private final ArrayDeque<CompletableFuture<Void>> pending = new ArrayDeque<>();
    private Throwable failure;

    public SendWindow(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit " + limit);
        }
        this.limit = limit;
    }

    /** Adds a send in flight; waits while {@code limit} earlier ones are unanswered. */
    public void add(CompletableFuture<Void> send) {
        send.whenComplete((ok, failed) -> {
            if (failed != null) {
                recordFailure(failed);
            }
        });
        CompletableFuture<Void> oldest = null;
        synchronized (this) {
            while (!pending.isEmpty() && pending.peekFirst().isDone()) {
                pending.pollFirst();
            }
            pending.addLast(send);
            if (pending.size() > limit) {
                oldest = pending.pollFirst();
            }
        }
        if (oldest != null) {
            oldest.exceptionally(failed -> null).join();
        }
    }

    /** Waits for every send added so far; the first failure of any send ever added, or null. */
    public Throwable awaitAll() {
        CompletableFuture<?>[] all;
        synchronized (this) {
            all = pending.toArray(CompletableFuture[]::new);
            pending.clear();
        }
        try {
            CompletableFuture.allOf(all).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            recordFailure(e);
        } catch (ExecutionException e) {
            recordFailure(e.getCause());
        }
        return failure();
    }

    /** The first failure of a send added so far, or null; it stays until {@link #clearFailure}. */
    public synchronized Throwable failure() {
        return failure;
    }

    /** The first failure, cleared: the next caller sees only failures after this one. */
    public synchronized Throwable clearFailure() {
        Throwable first = failure;
        failure = null;
        return first;
    }

    private synchronized void recordFailure(Throwable failed) {
        if (failure == null) {
            failure = failed instanceof CompletionException && failed.getCause() != null ? failed.getCause() : failed;
        }
    }
}
