package io.ramjet.provider.jms;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How much a consumer's feeds may ask the brokers for: the window, in messages and in bytes,
 * against what its prefetch holds and what pulls still out have asked for. The window starts at
 * one ({@code prefetch} for a subscription's sole consumer: no other consumer could take what it
 * holds, and a start at one would cost it a round trip per doubling on every new subscription), doubles each time the application empties the prefetch promptly, up to {@code prefetch},
 * and drops back to one once what it took waited a second. Nothing is asked for while the
 * consumer is closed or {@code paused} (the application takes no messages, or the connection is
 * stopped).
 *
 * <p>Thread-safe: one lock guards what is asked for; the feeds (I/O and pull threads) reserve
 * and wait on it for room, the threads that take messages and the pipeline's other steps wake
 * them. Called by {@link ConsumerPipeline} only.
 */
final class PullWindow {

    /** The application keeps up when what it takes waited at most this long: the window may grow. */
    private static final long KEEP_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The application is behind when what it takes waited this long: the window shrinks to one. */
    private static final long BEHIND_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** What a message is taken to weigh until one has been seen: sizes a consumer's first pull. */
    private static final int FIRST_GUESS_BYTES = 128 * 1024;

    private final PrefetchBuffer<Received> prefetched;
    private final BooleanSupplier closed;
    private final BooleanSupplier paused;
    /** Guards {@link #requested} and {@link #largest}; waited on by feeds for room. */
    private final Object space = new Object();
    /** Most messages held unseen by the application (the {@code prefetch} URL option). */
    private final int prefetch;
    /** Most bytes held unseen by the application and asked for (the {@code prefetchBytes} URL option). */
    private final long prefetchBytes;
    /** Messages asked for by pulls still out. */
    private int requested;
    /** The largest message taken in so far, bytes; 0 before the first. What a pull asks for is counted at this size. */
    private int largest;
    /**
     * How many messages the feeds may prefetch now: one (or {@link #prefetch} for a sole
     * consumer), doubling each time the application empties the prefetch promptly, up to
     * {@link #prefetch}, back to one once what it took waited a second.
     */
    private volatile int window;

    PullWindow(PrefetchBuffer<Received> prefetched, int prefetch, long prefetchBytes, boolean soleConsumer,
               BooleanSupplier closed, BooleanSupplier paused) {
        this.prefetched = prefetched;
        this.prefetch = prefetch;
        this.window = soleConsumer ? prefetch : 1;
        this.prefetchBytes = prefetchBytes;
        this.closed = closed;
        this.paused = paused;
    }

    /** The window, what the feeds asked for and have not brought yet, and the bounds, for a diagnosis. */
    String describe() {
        synchronized (space) {
            return "window " + window + " of " + prefetch + ", " + requested + " asked and not yet taken in";
        }
    }

    /** A feed is about to pull: how many messages it may ask for, counted as asked. */
    int reserve() {
        synchronized (space) {
            int room = room();
            requested += room;
            return room;
        }
    }

    /**
     * Whether a feed may hold a pull for one message that the window does not count (a feed from
     * a broker that ran dry, see {@code PullLoop}): while the consumer takes messages and what it
     * holds and has asked for is below the window.
     */
    boolean mayAwaitOne() {
        synchronized (space) {
            return !closed.getAsBoolean() && !paused.getAsBoolean() && prefetched.size() + requested < window;
        }
    }

    /** A feed waits up to {@code millis} for room, unless there is some or the consumer is closed. */
    void awaitRoom(long millis) throws InterruptedException {
        synchronized (space) {
            if (room() <= 0 && !closed.getAsBoolean()) {
                space.wait(millis);
            }
        }
    }

    /**
     * A pull that had reserved {@code reserved} brought {@code ready} (its largest message
     * {@code size} bytes): they join the prefetch, and the feeds waiting for room are woken.
     */
    void pulled(List<Received> ready, int reserved, int size) {
        synchronized (space) {
            prefetched.addAll(ready);
            requested -= reserved;
            largest = Math.max(largest, size);
            space.notifyAll();
        }
    }

    /**
     * How many messages a pull may ask for now, with {@link #space} held. Nothing while the
     * connection is stopped or the application takes no messages; else a refill of the window
     * once what is prefetched and asked for is down to half of it (with a window of one: once
     * both are none), so that a consumer takes
     * only what its application keeps up with and the others of its subscription get the rest.
     * In bytes the same, each message asked for counted at the largest size seen: a refill once
     * half of {@link #prefetchBytes} is free, as many as fit (one, when nothing is held, however
     * large). Until a message has been seen, one pull at a time takes a backlog of up to
     * {@link #prefetchBytes} / {@value #FIRST_GUESS_BYTES} messages (8 by default), which are
     * handed out by priority.
     */
    private int room() {
        if (closed.getAsBoolean() || paused.getAsBoolean()) {
            return 0;
        }
        int held = prefetched.size() + requested;
        if (largest == 0) {
            return held == 0 ? (int) Math.max(1, Math.min(prefetch, prefetchBytes / FIRST_GUESS_BYTES)) : 0;
        }
        int w = window;
        if (held > w / 2) {
            return 0;
        }
        long free = prefetchBytes - prefetched.bytes() - (long) requested * largest;
        if (held > 0 && free < prefetchBytes / 2) {
            return 0;
        }
        return (int) Math.min(w - held, Math.max(free / largest, held == 0 ? 1 : 0));
    }

    /** A message was taken: a feed waits for room, which most takes do not make (a refill waits for half the window). */
    void taken() {
        synchronized (space) {
            if (room() > 0) {
                space.notifyAll();
            }
        }
    }

    /**
     * An application that takes its messages late does not keep what others could take: the
     * window drops to one (true: the surplus is to go back to the broker uncounted). One that
     * keeps up doubles it each time its prefetch runs dry.
     */
    boolean adapt(long waitedNanos) {
        if (waitedNanos >= BEHIND_NANOS) {
            window = 1;
            return true;
        } else if (waitedNanos <= KEEP_UP_NANOS && prefetched.size() == 0) {
            window = Math.min(prefetch, window * 2);
        }
        return false;
    }

    /** Wakes the feeds waiting for room. */
    void wake() {
        synchronized (space) {
            space.notifyAll();
        }
    }

    /** Runs {@code step} with the lock held, then wakes the feeds waiting for room; its result. */
    <T> T wakeAfter(Supplier<T> step) {
        synchronized (space) {
            T result = step.get();
            space.notifyAll();
            return result;
        }
    }
}
