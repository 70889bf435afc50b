package io.ramjet.storage;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Futures that complete once the dispatcher has given the listener every record below a
 * CommitLog offset, so that a broker answers a send only when its message is in its
 * ConsumeQueue. A record the listener failed on counts as given: its sender must still hear
 * back. On disk: nothing. Threading: {@link #passed} from any thread; {@link #dispatched} on the
 * dispatcher thread, which completes the futures. After a crash: nothing to recover, waiters
 * died with the process.
 */
final class DispatchProgress {

    private final ConcurrentSkipListMap<Long, CompletableFuture<Void>> waiting = new ConcurrentSkipListMap<>();
    /** Written by the dispatcher before it completes futures, so a late registration sees it. */
    private volatile long passedTo;

    /** @param from the offset dispatch starts at: everything below it was dispatched (or recovered) */
    DispatchProgress(long from) {
        this.passedTo = from;
    }

    /** Completes when every record below {@code offset} has been given to the listener. */
    CompletableFuture<Void> passed(long offset) {
        if (passedTo >= offset) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = waiting.computeIfAbsent(offset, o -> new CompletableFuture<>());
        // the dispatcher may have passed between the check and the registration: it wrote
        // passedTo before draining, so either it saw this future or this re-check sees passedTo
        if (passedTo >= offset) {
            complete(offset);
        }
        return future;
    }

    /** Everything below {@code end} was given to the listener; called on the dispatcher thread. */
    void dispatched(long end) {
        passedTo = end;
        complete(end);
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
