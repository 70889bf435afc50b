package io.ramjet.protocol.remoting;

import io.netty.util.concurrent.EventExecutor;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The requests of one connection awaiting their responses, by request id, each with its
 * deadline. One sweep on the connection's event loop fails the overdue ones with a
 * {@link RemotingTimeoutException}: it runs every {@value #SWEEP_MILLIS} ms while any request
 * is pending and is armed again by the first request after it stopped, so a request costs no
 * timer of its own. (A Netty timer per request was scheduled from the sending thread and
 * cancelled from the completing one: two task hand-offs to the event loop per request, and
 * under load on two cores the client's event loop failed in its scheduled-task queue (a
 * NullPointerException in Netty 4.2.18's DefaultPriorityQueue), after which a connection was
 * never read again and its requests hung.) A request times out between its deadline and one
 * sweep period after it. Thread-safe.
 */
final class PendingRequests {

    static final long SWEEP_MILLIS = 25;

    /** A request awaiting its response. */
    record Pending(short code, CompletableFuture<Frame> future, long deadline, long timeoutMillis) {
    }

    private final Map<Integer, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean armed = new AtomicBoolean();
    private final EventExecutor loop;
    private final Supplier<String> peer;

    /** @param peer names the remote side in timeout messages */
    PendingRequests(EventExecutor loop, Supplier<String> peer) {
        this.loop = loop;
        this.peer = peer;
    }

    /**
     * Registers request {@code id}; its future fails with a timeout once {@code timeoutNanos}
     * pass without {@link #remove}.
     *
     * @throws RejectedExecutionException if the event loop is shutting down; nothing registered
     */
    void add(int id, short code, CompletableFuture<Frame> future, long timeoutNanos) {
        Pending entry = new Pending(code, future, System.nanoTime() + timeoutNanos,
                TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        pending.put(id, entry);
        try {
            arm();
        } catch (RejectedExecutionException shutDown) {
            pending.remove(id, entry);
            throw shutDown;
        }
    }

    /** Request {@code id}, no longer pending; null if it was not (answered or timed out already). */
    Pending remove(int id) {
        return pending.remove(id);
    }

    /** Removes request {@code id} if it is still the one sent with {@code future}; whether it was. */
    boolean remove(int id, CompletableFuture<Frame> future) {
        Pending entry = pending.get(id);
        return entry != null && entry.future() == future && pending.remove(id, entry);
    }

    /** Fails every pending request with what {@code failure} makes of its id and code. */
    void failAll(FailureForRequest failure) {
        for (Integer id : pending.keySet()) {
            Pending entry = pending.remove(id);
            if (entry != null) {
                entry.future().completeExceptionally(failure.of(id, entry.code()));
            }
        }
    }

    /** Makes the failure of one request. */
    @FunctionalInterface
    interface FailureForRequest {
        Throwable of(int id, short code);
    }

    private void arm() {
        if (armed.compareAndSet(false, true)) {
            try {
                loop.schedule(this::sweep, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException shutDown) {
                armed.set(false);
                throw shutDown;
            }
        }
    }

    /** On the event loop: fails what is overdue, then sweeps again while anything is pending. */
    private void sweep() {
        long now = System.nanoTime();
        pending.forEach((id, entry) -> {
            if (now - entry.deadline() >= 0 && pending.remove(id, entry)) {
                entry.future().completeExceptionally(new RemotingTimeoutException(CommandCode.name(entry.code())
                        + " id " + id + " to " + peer.get() + ": no response within " + entry.timeoutMillis() + " ms"));
            }
        });
        armed.set(false);
        // a request added while the flag was still set found it armed: look again after clearing it
        if (!pending.isEmpty()) {
            try {
                arm();
            } catch (RejectedExecutionException shutDown) {
                // the connection closes with its loop, and closing fails what is pending
            }
        }
    }
}
