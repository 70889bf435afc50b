package io.ramjet.server.broker.replication;

import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.storage.MessageStore;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's side of replication (RocketMQ's HAClient): one thread asks the master for its
 * CommitLog from this log's end, writes what comes at exactly that offset, waits for the force,
 * and asks again, which reports the new end to the master. Bytes of a newer epoch first add the
 * epoch to the {@link EpochFile}. The store dispatches the records as the master's did, so
 * ConsumeQueues, subscriptions, timers and transactions follow. Before its first fetch and after
 * every failure it has the {@link MasterLink} introduce it to the master as a member of the
 * cluster, over the connection it will fetch on. A failure (master down, refusal) is logged once
 * per run of failures and retried after {@code retryDelay}.
 *
 * <p>Threading: its own thread between {@link #start} and {@link #close}.
 */
public final class ReplicaFetcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcher.class);

    /**
     * The most bytes one fetch carries, what a slave asks for and a master sends at most: below the
     * frame limit with room for a record of the largest size plus a segment's padding.
     */
    public static final int MAX_FETCH_BYTES = 4 * 1024 * 1024;

    /** How the fetch loop runs. */
    public record Settings(int maxBytes, Duration hold, Duration retryDelay) {
        public static final Settings DEFAULT = new Settings(MAX_FETCH_BYTES, Duration.ofSeconds(1),
                Duration.ofMillis(500));
    }

    /** The master, as the fetch loop asks it; the processor package speaks the wire for it. */
    public interface MasterLink {

        /** The master's {@code host:port}. */
        String address();

        /**
         * Proves this slave a member of the cluster over the connection fetched on, and takes
         * bytes afterwards only from a master that proved it in return.
         */
        void introduce(Duration timeout) throws NetworkException, InterruptedException;

        /** Up to {@code maxBytes} of the master's CommitLog from {@code offset}, held up to {@code hold} for some. */
        Fetched fetch(long offset, int maxBytes, Duration hold) throws NetworkException, InterruptedException;
    }

    /**
     * What a fetch brought: the offset the bytes start at, the epoch they were written in, and
     * the bytes, null when none came.
     */
    public record Fetched(long offset, int epoch, ByteBuffer bytes) {
    }

    private final MasterLink master;
    private final MessageStore store;
    private final EpochFile epochs;
    private final Settings settings;
    private final LongAdder bytesReplicated = new LongAdder();
    private final Thread thread;
    private volatile boolean running = true;
    /** Whether the connection fetched on has proven this slave; only the fetch thread reads and writes it. */
    private boolean introduced;
    /** Whether the last fetch failed: the master is down, unreachable or refusing. */
    private volatile boolean masterLost;

    public ReplicaFetcher(MasterLink master, MessageStore store, EpochFile epochs, Settings settings) {
        this.master = master;
        this.store = store;
        this.epochs = epochs;
        this.settings = settings;
        this.thread = new Thread(this::run, "ramjet-replica-fetch");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Whether the master answered the last fetch (true until a fetch fails). */
    public boolean masterReachable() {
        return !masterLost;
    }

    /** Bytes written from the master since start. */
    public long bytesReplicated() {
        return bytesReplicated.sum();
    }

    private void run() {
        int failures = 0;
        while (running) {
            try {
                fetchOnce();
                masterLost = false;
                if (failures > 0) {
                    LOG.info("replicating from {} again after {} failed fetches", master.address(), failures);
                }
                failures = 0;
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                introduced = false;
                if (!running) {
                    return;
                }
                masterLost = true;
                if (failures++ == 0) {
                    LOG.warn("replication from {} failed at offset {}: {}; retrying every {} ms", master.address(),
                            store.maxPhysicalOffset(), e.toString(), settings.retryDelay().toMillis());
                }
                LockSupport.parkNanos(this, settings.retryDelay().toNanos());
            }
        }
    }

    private void fetchOnce() throws NetworkException, InterruptedException, ExecutionException, TimeoutException {
        if (!introduced) {
            master.introduce(Duration.ofSeconds(10));
            introduced = true;
        }
        long offset = store.maxPhysicalOffset();
        Fetched answer = master.fetch(offset, settings.maxBytes(), settings.hold());
        ByteBuffer bytes = answer.bytes();
        if (answer.offset() != offset || bytes == null) {
            return;
        }
        if (answer.epoch() < epochs.lastEpoch()) {
            throw new IllegalStateException("master at " + master.address() + " sent epoch " + answer.epoch()
                    + " bytes after this log's epoch " + epochs.lastEpoch() + ": restart the slave to truncate");
        }
        if (answer.epoch() > epochs.lastEpoch()) {
            epochs.begin(answer.epoch(), offset);
        }
        int length = bytes.remaining();
        // counted before the write, so that whoever sees the records dispatched sees them counted
        bytesReplicated.add(length);
        CompletableFuture<Long> flushed;
        try {
            flushed = store.appendReplicated(offset, bytes);
        } catch (RuntimeException e) {
            bytesReplicated.add(-length);
            throw e;
        }
        flushed.get(30, TimeUnit.SECONDS);
    }

    /**
     * Stops the loop as {@link #close} does.
     *
     * @return whether its thread has ended, so that nothing it fetched is still being written
     */
    public boolean stop() {
        close();
        return !thread.isAlive();
    }

    /** Stops the loop; a fetch in flight is abandoned (the caller closes the master's client). */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
