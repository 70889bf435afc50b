package io.ramjet.protocol.remoting;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One connection of a {@link RemotingClient} from the moment it starts to open: the future of
 * the open connection, and the writes callers ask of it, which reach the connection in the
 * order they were asked for, whether it was open or still opening. Writes asked for while it
 * opens wait in a queue; when the open completes, the queue is drained in a loop in the thread
 * that completed it, later writes joining the queue's end until it is empty, and only then do
 * writes go straight to the connection. Writes chained as dependents of the open future would
 * run newest first, writing the requests that waited for a connect or reconnect in reverse: an
 * idempotent producer's earlier sends would reach the broker after later ones, and the broker
 * would take them for resends and store nothing. A loop, not futures completed
 * each the next, so that thousands of waiting writes cannot overflow the stack. A failed open
 * fails every waiting write, in order. Thread-safe.
 */
final class OrderedConnection {

    private final CompletableFuture<RemotingConnection> opened = new CompletableFuture<>();
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    /** Whether the open has completed and every write that waited for it was handed on. */
    private boolean drained;

    OrderedConnection() {
        opened.whenComplete((connection, failure) -> drain());
    }

    /** Completed by whoever opens the connection: with it, or with why it could not be opened. */
    CompletableFuture<RemotingConnection> opened() {
        return opened;
    }

    /**
     * Runs {@code write} on the connection once it is open and every write asked for before this
     * one was handed to it; the result completes as the write's does, or fails as the open did.
     */
    <T> CompletableFuture<T> write(Function<RemotingConnection, CompletableFuture<T>> write) {
        synchronized (this) {
            if (!drained) {
                CompletableFuture<T> result = new CompletableFuture<>();
                waiting.add(() -> opened.thenCompose(write).whenComplete((value, failure) -> {
                    if (failure == null) {
                        result.complete(value);
                    } else {
                        result.completeExceptionally(failure);
                    }
                }));
                return result;
            }
        }
        return opened.thenCompose(write);
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                next = waiting.poll();
                if (next == null) {
                    drained = true;
                    return;
                }
            }
            next.run();
        }
    }
}
