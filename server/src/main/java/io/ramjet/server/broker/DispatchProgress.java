package io.ramjet.server.broker;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;

/**
 * Futures that complete once the dispatcher has passed a CommitLog offset, so that a send is
 * answered only when its message is in its ConsumeQueue: a consumer asking right after the
 * send, or a topic subscription created right after it, sees it where it should. Thread-safe;
 * {@link #dispatched} is called on the dispatcher thread.
 */
public final class DispatchProgress {

    private final ConcurrentSkipListMap<Long, CompletableFuture<Void>> waiting = new ConcurrentSkipListMap<>();
    private volatile LongSupplier dispatchedOffset = () -> 0;

    /** Where the store says it has dispatched to; set once the store is open. */
    void track(LongSupplier offset) {
        this.dispatchedOffset = offset;
    }

    /** Completes when every record below {@code offset} is dispatched. */
    public CompletableFuture<Void> passed(long offset) {
        if (dispatchedOffset.getAsLong() >= offset) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = waiting.computeIfAbsent(offset, o -> new CompletableFuture<>());
        // the dispatcher may have passed between the check and the registration
        if (dispatchedOffset.getAsLong() >= offset) {
            dispatched(dispatchedOffset.getAsLong());
        }
        return future;
    }

    /** Everything below {@code end} is dispatched. */
    void dispatched(long end) {
        ConcurrentNavigableMap<Long, CompletableFuture<Void>> due = waiting.headMap(end, true);
        for (Map.Entry<Long, CompletableFuture<Void>> e : due.entrySet()) {
            if (waiting.remove(e.getKey(), e.getValue())) {
                e.getValue().complete(null);
            }
        }
    }
}
