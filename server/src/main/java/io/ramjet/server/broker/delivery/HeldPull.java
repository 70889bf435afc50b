package io.ramjet.server.broker.delivery;

import io.ramjet.protocol.frame.Frame;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A pull the broker holds until a message arrives or the hold ends (RocketMQ's long polling).
 * Each {@link #attempt()} runs the fetch again; the first one that finds messages, or the end of
 * the hold, completes the response exactly once. Thread-safe.
 */
final class HeldPull {

    private final Supplier<Frame> fetch;
    private final Supplier<Frame> empty;
    private final CompletableFuture<Frame> response = new CompletableFuture<>();
    private boolean done;

    /**
     * @param fetch claims and answers, or returns null when there is nothing to deliver
     * @param empty the answer when the hold ends
     */
    HeldPull(Supplier<Frame> fetch, Supplier<Frame> empty) {
        this.fetch = fetch;
        this.empty = empty;
    }

    CompletableFuture<Frame> response() {
        return response;
    }

    /** Fetches again; true when the pull is now answered. */
    synchronized boolean attempt() {
        if (done) {
            return true;
        }
        Frame frame;
        try {
            frame = fetch.get();
        } catch (RuntimeException e) {
            done = true;
            response.completeExceptionally(e);
            return true;
        }
        if (frame == null) {
            return false;
        }
        done = true;
        response.complete(frame);
        return true;
    }

    /** Ends the hold with an empty answer, unless already answered. */
    synchronized void expire() {
        if (!done) {
            done = true;
            response.complete(empty.get());
        }
    }
}
