package io.ramjet.server.broker.processor;

import io.netty.buffer.ByteBuf;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ReplicaFetchRequest;
import io.ramjet.protocol.command.ReplicaFetchResponse;
import io.ramjet.protocol.command.ReplicaHandshakeRequest;
import io.ramjet.protocol.command.ReplicaHandshakeResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.protocol.remoting.RemotingTimeoutException;
import io.ramjet.server.broker.replication.EpochFile;
import io.ramjet.server.cluster.ClusterIntroduction;
import io.ramjet.storage.MessageStore;
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
 * every failure it proves to the master, over the connection it will fetch on, that it is a
 * member of the cluster ({@link ClusterIntroduction}), and takes bytes only from a master that
 * proves it in return. A failure (master down, refusal) is logged once per run of failures and
 * retried after {@code retryDelay}.
 *
 * <p>Threading: its own thread between {@link #start} and {@link #close}.
 */
public final class ReplicaFetcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcher.class);

    /** How the fetch loop runs. */
    public record Settings(int maxBytes, Duration hold, Duration retryDelay) {
        public static final Settings DEFAULT = new Settings(ReplicationProcessor.MAX_FETCH_BYTES,
                Duration.ofSeconds(1), Duration.ofMillis(500));
    }

    private final RemotingClient client;
    private final String masterAddress;
    private final long brokerId;
    private final ClusterIntroduction introduction;
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

    public ReplicaFetcher(RemotingClient client, String masterAddress, long brokerId,
                          ClusterIntroduction introduction, MessageStore store, EpochFile epochs, Settings settings) {
        this.client = client;
        this.masterAddress = masterAddress;
        this.brokerId = brokerId;
        this.introduction = introduction;
        this.store = store;
        this.epochs = epochs;
        this.settings = settings;
        this.thread = new Thread(this::run, "ramjet-replica-fetch");
        this.thread.setDaemon(true);
    }

    /**
     * Introduces slave {@code brokerId} of group {@code brokerName} to the master, as a member of
     * the cluster first, and returns what it answered: its epoch history and log bounds.
     *
     * @throws RemotingException if the master cannot be reached or refuses
     * @throws ClusterIntroduction.NotAMemberException if the master does not prove the cluster secret
     */
    public static ReplicaHandshakeResponse handshake(RemotingClient client, String masterAddress, String brokerName,
                                                     long brokerId, ClusterIntroduction introduction, Duration timeout)
            throws RemotingException, InterruptedException {
        introduce(client, masterAddress, introduction, timeout);
        return ask(client, masterAddress, Frame.request(CommandCode.REPLICA_HANDSHAKE,
                new ReplicaHandshakeRequest(brokerName, brokerId)), timeout).header(ReplicaHandshakeResponse.class);
    }

    /**
     * One request to the master. One left unanswered past its timeout closes the connection, so
     * that the next request opens a new one: a network that stops forwarding without a reset (a
     * cut link, a firewall or NAT that lost its state) would otherwise hold every later request on
     * a silent connection until its idle timeout.
     */
    private static Frame ask(RemotingClient client, String masterAddress, Frame request, Duration timeout)
            throws RemotingException, InterruptedException {
        try {
            return client.invokeSync(masterAddress, request, timeout);
        } catch (RemotingTimeoutException e) {
            LOG.debug("master {} did not answer within {} ms: closing the replication connection", masterAddress,
                    timeout.toMillis());
            client.closeConnection(masterAddress);
            throw e;
        }
    }

    private static void introduce(RemotingClient client, String masterAddress, ClusterIntroduction introduction,
                                  Duration timeout) throws RemotingException, InterruptedException {
        try {
            introduction.to(client, masterAddress, timeout).get(timeout.toMillis() * 3, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ClusterIntroduction.NotAMemberException impostor) {
                throw impostor;
            }
            RemotingException failure = RemotingClient.unwrap(e.getCause());
            if (failure instanceof RemotingTimeoutException) {
                // as for any unanswered request (see ask): the next attempt opens a new connection
                client.closeConnection(masterAddress);
            }
            throw failure;
        } catch (TimeoutException e) {
            client.closeConnection(masterAddress);
            throw new RemotingTimeoutException("master " + masterAddress + " did not answer the cluster handshake");
        }
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
                    LOG.info("replicating from {} again after {} failed fetches", masterAddress, failures);
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
                    LOG.warn("replication from {} failed at offset {}: {}; retrying every {} ms", masterAddress,
                            store.maxPhysicalOffset(), e.toString(), settings.retryDelay().toMillis());
                }
                LockSupport.parkNanos(this, settings.retryDelay().toNanos());
            }
        }
    }

    private void fetchOnce() throws RemotingException, InterruptedException, ExecutionException, TimeoutException {
        if (!introduced) {
            introduce(client, masterAddress, introduction, Duration.ofSeconds(10));
            introduced = true;
        }
        long offset = store.maxPhysicalOffset();
        Frame response = ask(client, masterAddress, Frame.request(CommandCode.REPLICA_FETCH,
                        new ReplicaFetchRequest(brokerId, offset, settings.maxBytes(), settings.hold().toMillis())),
                settings.hold().plusSeconds(10));
        ReplicaFetchResponse answer = response.header(ReplicaFetchResponse.class);
        ByteBuf body = response.body();
        if (answer.offset() != offset || body == null || !body.isReadable()) {
            return;
        }
        if (answer.epoch() < epochs.lastEpoch()) {
            throw new IllegalStateException("master at " + masterAddress + " sent epoch " + answer.epoch()
                    + " bytes after this log's epoch " + epochs.lastEpoch() + ": restart the slave to truncate");
        }
        if (answer.epoch() > epochs.lastEpoch()) {
            epochs.begin(answer.epoch(), offset);
        }
        int length = body.readableBytes();
        // counted before the write, so that whoever sees the records dispatched sees them counted
        bytesReplicated.add(length);
        CompletableFuture<Long> flushed;
        try {
            flushed = store.appendReplicated(offset, body.nioBuffer());
        } catch (RuntimeException e) {
            bytesReplicated.add(-length);
            throw e;
        }
        flushed.get(30, TimeUnit.SECONDS);
    }

    /** Stops the loop; a fetch in flight is abandoned (the caller closes the remoting client). */
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
