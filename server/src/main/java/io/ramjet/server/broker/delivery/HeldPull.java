package io.ramjet.server.broker.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A pull the broker holds until messages arrive or the hold ends (RocketMQ's long polling). It
 * gathers what its {@link HeldPulls.Fetch} claims, possibly over several rounds when other consumers of
 * its subscription wait too, and is answered exactly once: with what it gathered, or empty when
 * the hold ends, or at once when its consumer is gone. Its response completes once the MARKs
 * covering what it gathered are durable; its lock is never held while waiting for them.
 * Thread-safe.
 */
final class HeldPull {

    private final Object subscription;
    private final long consumer;
    private final int max;
    private final HeldPulls.Fetch fetch;
    private final CompletableFuture<List<FetchedMessage>> response = new CompletableFuture<>();
    private final List<FetchedMessage> taken = new ArrayList<>();
    private final List<CompletableFuture<?>> leaves = new ArrayList<>();
    private long bytes;
    private boolean done;

    /** @param subscription what the pull consumes: pulls of one subscription share its messages in turn */
    HeldPull(Object subscription, long consumer, int max, HeldPulls.Fetch fetch) {
        this.subscription = subscription;
        this.consumer = consumer;
        this.max = max;
        this.fetch = fetch;
    }

    Object subscription() {
        return subscription;
    }

    long consumer() {
        return consumer;
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
        Fetched got;
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
        for (FetchedMessage m : got.messages()) {
            taken.add(m);
            bytes += m.record().totalSize();
        }
        if (!got.leaves().isDone() || got.leaves().isCompletedExceptionally()) {
            leaves.add(got.leaves());
        }
        return got.messages().size();
    }

    /** Answers with what it gathered, if anything. */
    synchronized void answerIfAny() {
        if (!taken.isEmpty()) {
            answer();
        }
    }

    /** Answers with what it gathered, empty if nothing, unless already answered. */
    synchronized void answer() {
        if (done) {
            return;
        }
        done = true;
        List<FetchedMessage> gathered = List.copyOf(taken);
        if (leaves.isEmpty()) {
            response.complete(gathered);
            return;
        }
        CompletableFuture.allOf(leaves.toArray(CompletableFuture[]::new)).whenComplete((durable, failure) -> {
            if (failure == null) {
                response.complete(gathered);
            } else {
                response.completeExceptionally(failure instanceof CompletionException c && c.getCause() != null
                        ? c.getCause() : failure);
            }
        });
    }
}
