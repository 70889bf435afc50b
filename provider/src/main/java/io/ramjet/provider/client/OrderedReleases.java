package io.ramjet.provider.client;

import io.ramjet.model.MessagePosition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The releases of one consumer attachment, sent one after another: each goes out once the one
 * before it is answered (or failed), so the broker applies them in the order they were asked
 * for. A broker serves requests on several threads and may apply two releases sent back to back
 * in either order; for a message group that would make a later message visible before an
 * earlier one is back, and redeliver them out of order. Releases of different attachments go
 * out independently. Thread-safe.
 */
final class OrderedReleases {

    /** Sends one release; the transport's call. */
    @FunctionalInterface
    interface Release {
        CompletableFuture<Void> send(ConsumerInfo consumer, List<MessagePosition> positions, boolean countDelivery);
    }

    private final Release release;
    /** Per attachment id, the last release asked for while one is unanswered. */
    private final Map<Long, CompletableFuture<Void>> last = new ConcurrentHashMap<>();

    OrderedReleases(Release release) {
        this.release = release;
    }

    /** Sends the release after every earlier release of the same attachment is answered. */
    CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions, boolean countDelivery) {
        long id = consumer.consumerId();
        CompletableFuture<Void> next = last.compute(id, (key, before) -> before == null
                ? release.send(consumer, positions, countDelivery)
                : before.handle((done, failure) -> null)
                        .thenCompose(answered -> release.send(consumer, positions, countDelivery)));
        next.whenComplete((done, failure) -> last.remove(id, next));
        return next;
    }
}
