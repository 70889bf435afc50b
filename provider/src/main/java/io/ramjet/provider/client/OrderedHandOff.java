package io.ramjet.provider.client;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * Hands a connection's sends on in the order they were submitted, each once its route is known
 * (a send whose route is known waits for the sends submitted before it, whose routes may still
 * be looked up). The waiting sends are queued and handed in a loop when the route the first of
 * them waits for completes: a chain of futures, one per send, completed each the next
 * recursively, overflowed the stack once a few thousand sends waited for a connection (two
 * thousand at 5,000 sends a second is 0.4 s of a slow start), and every send after the overflow
 * was never handed on. Each send gets its sequence number here, in submission order.
 * Thread-safe; a send is handed on in the thread that submitted it or that completed the route
 * it waited for, never while another is being handed on.
 */
final class OrderedHandOff {

    /** Hands a send on to its group: {@code sequence} orders it among the connection's sends. */
    @FunctionalInterface
    interface Hand {
        CompletableFuture<Void> to(String group, long sequence);
    }

    private record Waiting(long sequence, CompletableFuture<String> routed, Hand hand,
                           CompletableFuture<Void> result) {
    }

    private final ArrayDeque<Waiting> queue = new ArrayDeque<>();
    private long lastSequence;
    private boolean handing;
    /** The route the first waiting send waits for, once a callback on it is registered. */
    private CompletableFuture<String> awaited;

    /** Hands the send on once {@code routed} and every send submitted before it are; completes as the hand-off does. */
    CompletableFuture<Void> submit(CompletableFuture<String> routed, Hand hand) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        synchronized (this) {
            queue.add(new Waiting(++lastSequence, routed, hand, result));
            if (handing) {
                return result;
            }
            handing = true;
        }
        handAll();
        return result;
    }

    /** Hands on every send at the head of the queue whose route is known; then waits for the next route. */
    private void handAll() {
        CompletableFuture<String> next;
        while (true) {
            Waiting head;
            synchronized (this) {
                head = queue.peek();
                if (head == null) {
                    handing = false;
                    return;
                }
                if (!head.routed().isDone()) {
                    handing = false;
                    if (awaited == head.routed()) {
                        return;
                    }
                    awaited = head.routed();
                    next = awaited;
                    break;
                }
                queue.poll();
            }
            handOn(head);
        }
        next.whenComplete((group, failure) -> resume());
    }

    private void resume() {
        synchronized (this) {
            if (handing) {
                return;
            }
            handing = true;
        }
        handAll();
    }

    private static void handOn(Waiting send) {
        // the route is known: this runs the hand-off now, in this thread, and keeps what it throws
        send.routed().thenCompose(group -> send.hand().to(group, send.sequence())).whenComplete((sent, failure) -> {
            if (failure == null) {
                send.result().complete(null);
            } else {
                send.result().completeExceptionally(failure);
            }
        });
    }
}
