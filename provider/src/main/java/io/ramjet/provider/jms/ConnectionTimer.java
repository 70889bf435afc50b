package io.ramjet.provider.jms;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A connection's one timer thread, started on first use and stopped when the connection closes:
 * the delayed work of its sessions (the timed flush of an AUTO or DUPS_OK batch of
 * acknowledgements) runs there, one task after another. Not {@code CompletableFuture}'s
 * delayed executor: on a machine of one or two cores its common pool has a parallelism of one,
 * and it then starts a new thread for every task, a thread per acknowledgement batch in a drain.
 * A task scheduled after {@link #close} is dropped: closing the connection closed its sessions
 * first, and each sent its batch then. Thread-safe.
 */
final class ConnectionTimer implements AutoCloseable {

    private final String threadName;
    private ScheduledThreadPoolExecutor executor;
    private boolean closed;

    /** @param threadName the name of the thread once started */
    ConnectionTimer(String threadName) {
        this.threadName = threadName;
    }

    /** Runs {@code task} on the timer thread after {@code delayMillis}, unless the timer is closed by then. */
    void schedule(Runnable task, long delayMillis) {
        ScheduledThreadPoolExecutor timer;
        synchronized (this) {
            if (closed) {
                return;
            }
            if (executor == null) {
                executor = new ScheduledThreadPoolExecutor(1, r -> {
                    Thread t = new Thread(r, threadName);
                    t.setDaemon(true);
                    return t;
                });
            }
            timer = executor;
        }
        timer.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops the thread; tasks not yet run are dropped. */
    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
