package io.ramjet.server.broker;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread SEND and TX_COMMIT_COUNTED run on, which runs {@code whenIdle} each time it has
 * run out of queued requests: there the broker forces the CommitLog for the persistent sends it
 * has just appended (group commit by batch: the requests that arrive during one force are
 * appended together and share the next), with no hand-off to the flush thread and back. Which
 * thread may force, and for how long, is the store's {@code DurabilityPipeline}'s rule.
 */
final class SendThread extends ThreadPoolExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(SendThread.class);

    private final Runnable whenIdle;

    SendThread(ThreadFactory threads, Runnable whenIdle) {
        super(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threads);
        this.whenIdle = whenIdle;
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
        if (!getQueue().isEmpty()) {
            return;
        }
        try {
            whenIdle.run();
        } catch (RuntimeException e) {
            // the waiters of a failed force are failed by it; the thread goes on with the next request
            LOG.error("send thread's idle work failed", e);
        }
    }
}
