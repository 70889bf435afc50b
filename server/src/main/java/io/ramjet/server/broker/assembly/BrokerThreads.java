package io.ramjet.server.broker.assembly;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The broker's threads, all daemons: where its requests run and its periodic work. */
public final class BrokerThreads {

    /** Logins waiting past this many are answered BUSY. */
    private static final int MAX_QUEUED_LOGINS = 256;

    private final ExecutorService processors;
    /**
     * Serves the other brokers of the cluster (their handshake, a slave's fetches) apart from
     * {@link #processors}, whose threads may wait for those very fetches (a durable append under
     * synchronous replication): behind them, a fetch would wait until the writes time out.
     */
    private final ExecutorService clusterRequests;
    private final ScheduledExecutorService timer;
    /** AUTHENTICATE hashes for about 0.1 s: one thread and a bounded queue, so a flood of logins cannot starve messaging. */
    private final ExecutorService logins;

    public BrokerThreads() {
        AtomicInteger threads = new AtomicInteger();
        this.processors = Executors.newFixedThreadPool(Math.max(4, Runtime.getRuntime().availableProcessors() * 2),
                r -> daemon(r, "ramjet-broker-" + threads.incrementAndGet()));
        this.clusterRequests = Executors.newSingleThreadExecutor(r -> daemon(r, "ramjet-broker-cluster"));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ramjet-broker-timer"));
        this.logins = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_QUEUED_LOGINS),
                r -> daemon(r, "ramjet-broker-login"));
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Where client requests run. */
    public ExecutorService processors() {
        return processors;
    }

    /** Where the other brokers' requests run. */
    ExecutorService clusterRequests() {
        return clusterRequests;
    }

    public ScheduledExecutorService timer() {
        return timer;
    }

    ExecutorService logins() {
        return logins;
    }

    /** Stops the periodic work and the logins at once. */
    public void stopTimerAndLogins() {
        timer.shutdownNow();
        logins.shutdownNow();
    }

    /** Lets the requests under way finish, waiting up to five seconds for the client requests. */
    public void shutdown() {
        processors.shutdown();
        clusterRequests.shutdown();
        try {
            processors.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
