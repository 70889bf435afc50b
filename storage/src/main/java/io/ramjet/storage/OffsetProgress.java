package io.ramjet.storage;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Futures that complete once a position that only moves forward has passed a CommitLog offset:
 * the dispatcher's (every record below it given to the listener, so that a broker answers a send
 * only when its message is in its ConsumeQueue; a record the listener failed on counts as given,
 * its sender must still hear back) or the log's end (every record below it written, for a
 * replica's fetch waiting for new bytes). On disk: nothing. Threading: any thread; whoever moves
 * the position completes the futures it passed. After a crash: nothing to recover, waiters died
 * with the process.
 */
final class OffsetProgress {

    private final ConcurrentSkipListMap<Long, CompletableFuture<Void>> waiting = new ConcurrentSkipListMap<>();
    /** Raised before futures are completed, so a late registration sees it. */
    private final AtomicLong passedTo;

    /** @param from where the position starts: everything below it has passed */
    OffsetProgress(long from) {
        this.passedTo = new AtomicLong(from);
    }

    /** Completes when the position has passed {@code offset}. */
    CompletableFuture<Void> passed(long offset) {
        if (passedTo.get() >= offset) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = waiting.computeIfAbsent(offset, o -> new CompletableFuture<>());
        // the position may have moved between the check and the registration: it was raised
        // before draining, so either the mover saw this future or this re-check sees it
        if (passedTo.get() >= offset) {
            complete(offset);
        }
        return future;
    }

    /** The position is at least {@code end} now; movers may race, the position never goes back. */
    void reached(long end) {
        long now = passedTo.accumulateAndGet(end, Math::max);
        if (!waiting.isEmpty()) {
            complete(now);
        }
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
