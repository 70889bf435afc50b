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
    /** Written by the dispatcher before it completes futures, so a late registration sees it. */
    private volatile long passedTo;

    /** Where the store says it has dispatched to; set once the store is open. */
    void track(LongSupplier offset) {
        this.dispatchedOffset = offset;
    }

    /** Completes when every record below {@code offset} is dispatched. */
    public CompletableFuture<Void> passed(long offset) {
        if (reached(offset)) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = waiting.computeIfAbsent(offset, o -> new CompletableFuture<>());
        // the dispatcher may have passed between the check and the registration: it wrote
        // passedTo before draining, so either it saw this future or this re-check sees passedTo
        if (reached(offset)) {
            complete(offset);
        }
        return future;
    }

    /** Everything below {@code end} is dispatched; called on the dispatcher thread. */
    void dispatched(long end) {
        passedTo = end;
        complete(end);
    }

    private boolean reached(long offset) {
        return passedTo >= offset || dispatchedOffset.getAsLong() >= offset;
    }

    private void complete(long end) {
        ConcurrentNavigableMap<Long, CompletableFuture<Void>> due = waiting.headMap(end, true);
        for (Map.Entry<Long, CompletableFuture<Void>> e : due.entrySet()) {
            if (waiting.remove(e.getKey(), e.getValue())) {
                e.getValue().complete(null);
            }
        }
    }
}
