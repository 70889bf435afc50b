package io.ramjet.provider.jms;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * The one thread of a session that runs its message listeners and completion listeners, one at
 * a time, in the order asked; a daemon started on first use. Knows whether the caller runs on it
 * and whether it runs a completion listener now (section 7.3.8). Thread-safe.
 */
final class SessionThread {

    private final String name;
    private final Object lock = new Object();
    private volatile ExecutorService executor;
    private volatile Thread thread;
    /** The thread runs a completion listener now. */
    private volatile boolean completing;

    SessionThread(String name) {
        this.name = name;
    }

    /** Runs a listener delivery or a completion callback after those before it. */
    void execute(Runnable task) {
        ExecutorService current = executor;
        if (current == null) {
            synchronized (lock) {
                if (executor == null) {
                    executor = Executors.newSingleThreadExecutor(r -> {
                        Thread t = new Thread(r, name);
                        t.setDaemon(true);
                        thread = t;
                        return t;
                    });
                }
                current = executor;
            }
        }
        current.execute(task);
    }

    /** Whether the caller runs on this thread: in a message listener or a completion listener. */
    boolean isCurrent() {
        return Thread.currentThread() == thread;
    }

    /** Whether the caller is a message listener (not a completion listener). */
    boolean runsMessageListener() {
        return isCurrent() && !completing;
    }

    /** Whether the caller is a completion listener. */
    boolean runsCompletion() {
        return completing && isCurrent();
    }

    /** Runs a completion listener's callback here, known as one. */
    void runCompletion(Runnable callback) {
        completing = true;
        try {
            callback.run();
        } finally {
            completing = false;
        }
    }

    /** Waits for a task in progress to return; returns at once on this thread or when none ever ran. */
    void awaitIdle() {
        ExecutorService current = executor;
        if (current == null || isCurrent() || current.isShutdown()) {
            return;
        }
        try {
            current.submit(() -> { }).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | RejectedExecutionException e) {
            // shut down meanwhile: nothing is in progress
        }
    }

    /** Runs what was asked before, then ends. */
    void shutdown() {
        ExecutorService current = executor;
        if (current != null) {
            current.shutdown();
        }
    }
}
