package io.ramjet.provider.jms;

import jakarta.jms.ExceptionListener;
import jakarta.jms.JMSException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a connection's {@link ExceptionListener} about the failures no call could report, on a
 * thread of the connection's own: one failure at a time, in the order reported, never on the
 * thread that found the failure (an I/O thread, a consumer's pull loop, an ack's completion).
 * The listener may therefore stop or close its connection, as Spring's
 * {@code SingleConnectionFactory} does to reconnect: the close runs on this thread and nothing
 * it waits for runs here.
 *
 * <p>The thread starts with the first failure and ends once idle for a while, or at
 * {@link #shutdown()}; failures reported after shutdown, or while no listener is set, are
 * dropped. Thread-safe.
 */
final class ExceptionReporter {

    private static final Logger LOG = LoggerFactory.getLogger(ExceptionReporter.class);
    private static final long IDLE_SECONDS = 30;

    private final String connectionId;
    private final Supplier<ExceptionListener> listener;
    private final ThreadPoolExecutor thread;

    /** @param listener the listener to tell, asked at each failure (null: none; the connection closed: none) */
    ExceptionReporter(String connectionId, Supplier<ExceptionListener> listener) {
        this.connectionId = connectionId;
        this.listener = listener;
        this.thread = new ThreadPoolExecutor(0, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "ramjet-connection-exceptions-" + connectionId);
            t.setDaemon(true);
            return t;
        });
    }

    /** Queues the failure for the listener; returns at once, whatever thread calls it. */
    void report(JMSException failure) {
        try {
            thread.execute(() -> tell(failure));
        } catch (RejectedExecutionException shutDown) {
            LOG.debug("connection {} closed: failure not reported to its exception listener", connectionId, failure);
        }
    }

    private void tell(JMSException failure) {
        ExceptionListener target = listener.get();
        if (target == null) {
            return;
        }
        try {
            target.onException(failure);
        } catch (RuntimeException e) {
            LOG.warn("connection {}: exception listener {} threw", connectionId, target, e);
        }
    }

    /**
     * Drops the failures not yet told and lets a listener call in progress finish, without
     * waiting for it (the caller may be that listener) and without interrupting it.
     */
    void shutdown() {
        thread.getQueue().clear();
        thread.shutdown();
    }
}
