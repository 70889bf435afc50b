package io.ramjet.protocol.remoting;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs the tasks given to it one at a time, in the order given, on a shared executor: one
 * connection's requests of an in-order command ({@link ProcessorTable#registerInOrder}) start in
 * the order they arrived while other connections' run beside them. A task that throws does not
 * stop the lane. An idle lane costs nothing (no thread of its own). Thread-safe.
 */
final class InOrderLane implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(InOrderLane.class);

    private final Executor executor;
    private final ArrayDeque<Runnable> queued = new ArrayDeque<>();
    private boolean running;

    InOrderLane(Executor executor) {
        this.executor = executor;
    }

    /** @throws RejectedExecutionException when the executor refuses the lane's first task (nothing is queued then) */
    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            queued.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                queued.clear();
                running = false;
            }
            throw e;
        }
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                next = queued.poll();
                if (next == null) {
                    running = false;
                    return;
                }
            }
            try {
                next.run();
            } catch (RuntimeException e) {
                LOG.error("in-order task failed; the lane goes on with the next", e);
            }
        }
    }
}
