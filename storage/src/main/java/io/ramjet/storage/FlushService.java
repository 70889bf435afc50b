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
 * The force stage of the {@link DurabilityPipeline}, which alone drives it: the thread that forces the
 * CommitLog: as soon as an append waits for durability (group
 * commit: one force covers every append written before it, so concurrent waiters share it),
 * and otherwise every flush interval. An appending thread may instead force on its own thread
 * at the end of a batch of appends ({@link #flushedToLater} then {@link #forceWaiting}): that
 * saves waking this thread, about one thread hand-off per synchronous send.
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
    private volatile boolean running = true;

    FlushService(CommitLog log, Duration interval) {
        this.log = log;
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
     * Forces on the calling thread when appends wait for a force and none is under way; when one
     * is (it may have started before those appends), wakes the flush thread, which forces again
     * after it.
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
                idle = waiters.isEmpty();
            }
            if (idle) {
                LockSupport.parkNanos(this, intervalNanos);
            }
            forcing.lock();
            try {
                flushOnce();
            } finally {
                forcing.unlock();
            }
        }
    }

    FlushStatistics statistics() {
        return statistics;
    }

    private void flushOnce() {
        long before = log.flushedPosition();
        long started = System.nanoTime();
        long flushed;
        try {
            flushed = log.flush();
        } catch (RuntimeException e) {
            LOG.error("CommitLog flush failed", e);
            failAll(e);
            return;
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
