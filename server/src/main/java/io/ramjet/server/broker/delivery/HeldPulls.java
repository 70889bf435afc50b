package io.ramjet.server.broker.delivery;

import io.ramjet.protocol.frame.Frame;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The pulls held per destination (storage name). Whoever makes messages of a destination
 * offerable (the dispatcher for a new entry, a release, a visibility timeout) calls
 * {@link #wake}, which re-runs every held pull of that destination on the executor; a pull
 * whose hold ends is answered empty by the timer. Nothing polls. Thread-safe.
 */
public final class HeldPulls {

    private final Map<String, Set<HeldPull>> byDestination = new ConcurrentHashMap<>();
    private final Executor executor;
    private final ScheduledExecutorService timer;

    public HeldPulls(Executor executor, ScheduledExecutorService timer) {
        this.executor = executor;
        this.timer = timer;
    }

    /**
     * Answers at once when {@code fetch} finds messages, else holds the pull up to
     * {@code holdMillis}.
     *
     * @param fetch the answer with messages, or null when there are none
     * @param empty the answer when the hold ends
     */
    public CompletableFuture<Frame> pull(String destination, long holdMillis, Supplier<Frame> fetch,
                                         Supplier<Frame> empty) {
        HeldPull held = new HeldPull(fetch, empty);
        Set<HeldPull> waiting = byDestination.computeIfAbsent(destination, d -> ConcurrentHashMap.newKeySet());
        // registered before the first attempt, so a message dispatched in between wakes it
        waiting.add(held);
        if (held.attempt() || holdMillis == 0) {
            held.expire();
            waiting.remove(held);
            return held.response();
        }
        ScheduledFuture<?> end = timer.schedule(held::expire, holdMillis, TimeUnit.MILLISECONDS);
        held.response().whenComplete((frame, failure) -> {
            end.cancel(false);
            waiting.remove(held);
        });
        return held.response();
    }

    /** Re-runs the held pulls of a destination: it may have messages to offer. */
    public void wake(String destination) {
        Set<HeldPull> waiting = byDestination.get(destination);
        if (waiting == null || waiting.isEmpty()) {
            return;
        }
        for (HeldPull held : waiting) {
            try {
                executor.execute(held::attempt);
            } catch (RejectedExecutionException shuttingDown) {
                return;
            }
        }
    }

    /** Answers every held pull empty (the broker stops). */
    public void expireAll() {
        for (Set<HeldPull> waiting : byDestination.values()) {
            for (HeldPull held : waiting) {
                held.expire();
            }
        }
    }

    /** How many pulls are held now, for tests and metrics. */
    public int heldCount() {
        int n = 0;
        for (Set<HeldPull> waiting : byDestination.values()) {
            n += waiting.size();
        }
        return n;
    }
}
