package io.ramjet.storage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The force stage of the {@link DurabilityPipeline}, which alone decides who calls what here: the
 * thread that forces the CommitLog as soon as an append waits for durability (group commit: one
 * force covers every append written before it, so concurrent waiters share it) or the dispatcher
 * waits for a force ({@link #requestForce}), and otherwise every flush interval. A lane's thread
 * may instead force at the end of its batch of appends ({@link #flushedToLater} then
 * {@link #forceWaiting}), when the pipeline says it may.
 *
 * <p>On disk: nothing of its own. Threading: {@link #flushedTo} from any thread; futures are
 * completed on the thread that forced, so callers must not run long work in their callbacks.
 * One force runs at a time. After a crash: what was not forced may be lost, which is why no
 * waiter is completed before its force.
 */
final class FlushService {

    private static final Logger LOG = LoggerFactory.getLogger(FlushService.class);

    private record Waiter(long offset, CompletableFuture<Void> future) {
    }

    private final CommitLog log;
    private final long intervalNanos;
    private final PriorityQueue<Waiter> waiters = new PriorityQueue<>((a, b) -> Long.compare(a.offset, b.offset));
    private final Thread thread;
    /** Held across one force and the completion of its waiters, by this thread or an appender's. */
    private final ReentrantLock forcing = new ReentrantLock();
    private final FlushStatistics statistics = new FlushStatistics();
    private final Runnable forced;
    private volatile boolean running = true;
    /** A force asked for without a waiter ({@link #requestForce}); cleared as a force starts. */
    private volatile boolean requested;
    private volatile Runnable beforeForce = () -> { };

    /** @param forced runs on the flush thread after each of its forces that moved the flushed position */
    FlushService(CommitLog log, Duration interval, Runnable forced) {
        this.log = log;
        this.forced = forced;
        this.intervalNanos = interval.toNanos();
        this.thread = new Thread(this::run, "ramjet-flush");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Completes once the CommitLog is forced at least up to {@code offset}. */
    CompletableFuture<Void> flushedTo(long offset) {
        CompletableFuture<Void> future = flushedToLater(offset);
        if (!future.isDone()) {
            LockSupport.unpark(thread);
        }
        return future;
    }

    /**
     * As {@link #flushedTo}, without waking the flush thread: the caller promises to call
     * {@link #forceWaiting} once it has no more appends at hand (until then only the flush
     * interval forces).
     */
    CompletableFuture<Void> flushedToLater(long offset) {
        if (offset <= log.flushedPosition()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        synchronized (waiters) {
            if (!running) {
                return CompletableFuture.failedFuture(new StoreException("store closed"));
            }
            waiters.add(new Waiter(offset, future));
        }
        return future;
    }

    /**
     * Wakes the flush thread to force what is written, unless appends already wait for a force:
     * then one comes anyway (the flush thread's, or the one their appender promised in
     * {@link #forceWaiting}), and the dispatcher looks again after it.
     */
    void requestForce() {
        synchronized (waiters) {
            if (!waiters.isEmpty()) {
                return;
            }
        }
        requested = true;
        LockSupport.unpark(thread);
    }

    /** Runs {@code hook} before every force, on the forcing thread: for tests that hold a force back. */
    void beforeForce(Runnable hook) {
        beforeForce = hook;
    }

    /** Wakes the flush thread, which forces at once if appends wait for a force. */
    void wake() {
        LockSupport.unpark(thread);
    }

    /**
     * Forces on the calling thread when appends wait for a force and none is under way; when one
     * is (it may have started before those appends), wakes the flush thread, which forces again
     * after it. Never waits for another thread's force.
     */
    void forceWaiting() {
        synchronized (waiters) {
            if (waiters.isEmpty()) {
                return;
            }
        }
        if (forcing.tryLock()) {
            try {
                flushOnce();
            } finally {
                forcing.unlock();
            }
        } else {
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        while (running) {
            boolean idle;
            synchronized (waiters) {
                idle = waiters.isEmpty() && !requested;
            }
            if (idle) {
                LockSupport.parkNanos(this, intervalNanos);
            }
            boolean moved;
            forcing.lock();
            try {
                moved = flushOnce();
            } finally {
                forcing.unlock();
            }
            if (moved) {
                forced.run();
            }
        }
    }

    FlushStatistics statistics() {
        return statistics;
    }

    /** One force and the completion of its waiters; whether it moved the flushed position. */
    private boolean flushOnce() {
        requested = false;
        long started = System.nanoTime();
        beforeForce.run();
        long before = log.flushedPosition();
        long flushed;
        try {
            flushed = log.flush();
        } catch (RuntimeException e) {
            LOG.error("CommitLog flush failed", e);
            failAll(e);
            return false;
        }
        List<Waiter> done = new ArrayList<>();
        synchronized (waiters) {
            while (!waiters.isEmpty() && waiters.peek().offset <= flushed) {
                done.add(waiters.poll());
            }
        }
        if (flushed > before) {
            statistics.forced(System.nanoTime() - started, done.size());
        }
        for (Waiter waiter : done) {
            waiter.future.complete(null);
        }
        return flushed > before;
    }

    private void failAll(Throwable cause) {
        List<Waiter> failed;
        synchronized (waiters) {
            failed = new ArrayList<>(waiters);
            waiters.clear();
        }
        for (Waiter waiter : failed) {
            waiter.future.completeExceptionally(new StoreException("flush failed", cause));
        }
    }

    /** Stops the thread after a last force that completes every waiter. */
    void close() {
        synchronized (waiters) {
            running = false;
        }
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        forcing.lock();
        try {
            flushOnce();
        } finally {
            forcing.unlock();
        }
        failAll(new StoreException("store closed"));
    }
}
