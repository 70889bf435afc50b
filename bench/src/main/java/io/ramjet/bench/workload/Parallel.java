package io.ramjet.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a timed phase on several threads: every worker is prepared first (connections, sessions:
 * not timed), then all run at once, and the phase lasts from their start to the last one's end.
 */
public final class Parallel {

    /** The timed part of one thread's work; closing it releases what preparing it opened. */
    public interface Worker extends AutoCloseable {
        /** Does the work and returns how many messages it moved. */
        long run() throws Exception;

        @Override
        default void close() throws Exception {
        }

        /** A worker doing {@code body}'s work that closes {@code resource} (its connection) when done. */
        static Worker of(AutoCloseable resource, Worker body) {
            return new Worker() {
                @Override
                public long run() throws Exception {
                    return body.run();
                }

                @Override
                public void close() throws Exception {
                    resource.close();
                }
            };
        }
    }

    /** Prepares the worker of thread {@code index} (0-based). */
    @FunctionalInterface
    public interface WorkerFactory {
        Worker prepare(int index) throws Exception;
    }

    private Parallel() {
    }

    /** Prepares {@code threads} workers, runs them together and returns their summed rate. */
    public static Rate run(int threads, WorkerFactory factory) throws Exception {
        List<Worker> workers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int i = 0; i < threads; i++) {
                workers.add(factory.prepare(i));
            }
            long start = System.nanoTime();
            List<Future<Long>> done = new ArrayList<>();
            for (Worker w : workers) {
                done.add(pool.submit(w::run));
            }
            long total = 0;
            for (Future<Long> f : done) {
                total += unwrap(f);
            }
            return new Rate(total, Math.max(1, System.nanoTime() - start));
        } finally {
            pool.shutdownNow();
            for (Worker w : workers) {
                w.close();
            }
        }
    }

    /** The share of {@code count} that thread {@code index} of {@code threads} takes. */
    public static long share(long count, int threads, int index) {
        return count / threads + (index < count % threads ? 1 : 0);
    }

    private static long unwrap(Future<Long> f) throws Exception {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }
}
