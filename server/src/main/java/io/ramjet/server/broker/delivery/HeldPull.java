package io.ramjet.server.broker.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A pull the broker holds until messages arrive or the hold ends (RocketMQ's long polling). It
 * gathers what its {@link HeldPulls.Fetch} claims, possibly over several rounds when other consumers of
 * its subscription wait too, and is answered exactly once: with what it gathered, or empty when
 * the hold ends, or at once when its consumer is gone. Thread-safe.
 */
final class HeldPull {

    private final Object subscription;
    private final int max;
    private final HeldPulls.Fetch fetch;
    private final CompletableFuture<List<FetchedMessage>> response = new CompletableFuture<>();
    private final List<FetchedMessage> taken = new ArrayList<>();
    private long bytes;
    private boolean done;

    /** @param subscription what the pull consumes: pulls of one subscription share its messages in turn */
    HeldPull(Object subscription, int max, HeldPulls.Fetch fetch) {
        this.subscription = subscription;
        this.max = max;
        this.fetch = fetch;
    }

    Object subscription() {
        return subscription;
    }

    /** What it claimed, once answered; empty for nothing. */
    CompletableFuture<List<FetchedMessage>> response() {
        return response;
    }

    /** Whether it may take more: not answered, below its count and byte bounds. */
    synchronized boolean hasRoom() {
        return !done && taken.size() < max && bytes < MessageFetcher.MAX_BYTES;
    }

    /** Claims up to {@code n} more; returns how many it got. */
    synchronized int claim(int n) {
        if (!hasRoom()) {
            return 0;
        }
        List<FetchedMessage> got;
        try {
            got = fetch.claim(Math.min(n, max - taken.size()), MessageFetcher.MAX_BYTES - bytes);
        } catch (RuntimeException e) {
            done = true;
            response.completeExceptionally(e);
            return 0;
        }
        if (got == null) {
            answer();
            return 0;
        }
        for (FetchedMessage m : got) {
            taken.add(m);
            bytes += m.record().totalSize();
        }
        return got.size();
    }

    /** Answers with what it gathered, if anything. */
    synchronized void answerIfAny() {
        if (!taken.isEmpty()) {
            answer();
        }
    }

    /** Answers with what it gathered, empty if nothing, unless already answered. */
    synchronized void answer() {
        if (!done) {
            done = true;
            response.complete(List.copyOf(taken));
        }
    }
}
