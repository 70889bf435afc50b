package io.ramjet.storage;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where work that appends and waits for durability runs (a broker's sends and counted commits),
 * and who forces for it: on the event loop that read it, or on this lane's one thread, in batches
 * whose end forces once for all their appends. The {@link DurabilityPipeline} decides which and
 * states the rules (what may run on an event loop and for how long, what a waiter is promised);
 * this class carries them out. Work run here appends through the store as any caller does; the
 * pipeline sees the open batch and leaves the force to its end.
 *
 * <p>Order: work handed to the lane's thread is counted until it has run; while any is, all work
 * is handed off too, so one connection's work reaches the CommitLog in the order it arrived.
 * Work of different event loops may run at once; the store serializes appends.
 *
 * <p>Threading: {@link #execute} from event loops, {@link #handOff} from any thread. Close it
 * before its store. On disk: nothing.
 */
public final class AppendLane implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AppendLane.class);

    private final DurabilityPipeline pipeline;
    private final BooleanSupplier mayBlock;
    private final LaneThread thread;
    private final AtomicInteger handedOff = new AtomicInteger();

    AppendLane(DurabilityPipeline pipeline, String threadName, BooleanSupplier mayBlock) {
        this.pipeline = pipeline;
        this.mayBlock = mayBlock;
        this.thread = new LaneThread(threadName);
    }

    /**
     * Runs {@code work} here, on the calling event loop, or hands it to the lane's thread, as the
     * pipeline's rules say. Run here, it opens a batch on this thread if none is open, whose end
     * {@code afterReads} schedules: once the event loop has processed the reads at hand.
     *
     * @param afterReads runs a task on this event loop once it has processed the reads at hand;
     *                   may throw {@link RejectedExecutionException} when the loop is shutting down
     * @throws RejectedExecutionException once the lane is closed
     */
    public void execute(Runnable work, Consumer<Runnable> afterReads) {
        if (handedOff.get() == 0 && !thread.isShutdown() && !mayBlock.getAsBoolean() && pipeline.forcesQuickly()) {
            boolean opened = pipeline.openBatch();
            try {
                work.run();
            } finally {
                if (opened) {
                    endAfterReads(afterReads);
                }
            }
            return;
        }
        handOff(work);
    }

    /**
     * Runs {@code work} on the lane's thread behind what waits there, and keeps later work off the
     * event loops until it has run.
     *
     * @throws RejectedExecutionException once the lane is closed
     */
    public void handOff(Runnable work) {
        handedOff.incrementAndGet();
        try {
            thread.execute(() -> {
                try {
                    work.run();
                } finally {
                    handedOff.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            handedOff.decrementAndGet();
            throw e;
        }
    }

    private void endAfterReads(Consumer<Runnable> afterReads) {
        try {
            afterReads.accept(this::endEventLoopBatch);
        } catch (RejectedExecutionException shuttingDown) {
            endEventLoopBatch();
        }
    }

    /** Ends an event loop's batch there, or, when the pipeline says it may not force there, on the lane's thread. */
    private void endEventLoopBatch() {
        if (endBatch(true)) {
            return;
        }
        try {
            handOff(() -> { }); // the lane's thread forces at the end of its batch
        } catch (RejectedExecutionException closed) {
            pipeline.endBatchElsewhere();
        }
    }

    private boolean endBatch(boolean eventLoop) {
        try {
            return pipeline.endBatch(eventLoop);
        } catch (RuntimeException e) {
            // the waiters of a failed force are failed by it; the thread goes on
            LOG.error("forcing the CommitLog for a batch of appends failed", e);
            return true;
        }
    }

    /** Whether the lane's thread has work queued or running; for tests. */
    boolean busy() {
        return handedOff.get() > 0;
    }

    /** Takes no more work, and waits up to 5 s for what is queued. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("{} did not finish its queued work within 5 s", thread.name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The lane's one thread: its batch is open while it runs work, and ends whenever its queue is empty. */
    private final class LaneThread extends ThreadPoolExecutor {

        private final String name;

        LaneThread(String name) {
            super(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
            this.name = name;
        }

        @Override
        protected void beforeExecute(Thread t, Runnable r) {
            pipeline.openBatch();
        }

        @Override
        protected void afterExecute(Runnable task, Throwable failure) {
            if (getQueue().isEmpty()) {
                endBatch(false);
            }
        }
    }
}
