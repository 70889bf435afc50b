package io.ramjet.server.broker.delivery;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What one fetch claimed, and when it may leave the broker: once {@code leaves} completes (the
 * MARK covering the claims is durable). If {@code leaves} fails, the claims were given back.
 */
public record Fetched(List<FetchedMessage> messages, CompletableFuture<?> leaves) {

    private static final Fetched NOTHING = new Fetched(List.of(), CompletableFuture.completedFuture(null));

    /** Nothing was offerable. */
    public static Fetched nothing() {
        return NOTHING;
    }
}
