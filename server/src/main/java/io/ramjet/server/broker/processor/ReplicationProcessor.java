package io.ramjet.server.broker.processor;

import io.netty.buffer.Unpooled;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ReplicaFetchRequest;
import io.ramjet.protocol.command.ReplicaFetchResponse;
import io.ramjet.protocol.command.ReplicaHandshakeRequest;
import io.ramjet.protocol.command.ReplicaHandshakeResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.replication.EpochFile;
import io.ramjet.server.broker.replication.InSyncReplicas;
import io.ramjet.server.broker.replication.ReplicaFetcher;
import io.ramjet.server.cluster.ClusterMembership;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.RecordReadException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The master's side of replication (RocketMQ's HAConnection): REPLICA_HANDSHAKE answers the
 * master's epoch history and log bounds; REPLICA_FETCH records how far the slave has flushed
 * (the in-sync set's input), then answers the CommitLog's raw bytes from the offset asked,
 * within one epoch, or holds the request until a record is dispatched past it (long polling).
 * When the connection a slave last fetched over closes, the slave leaves the in-sync set.
 * Both are served only to a connection that proved, with the cluster secret, to be the slave it
 * names ({@link ClusterMembership#requireBroker}): the log is every message of every destination,
 * and a slave's reported offset decides what SYNC acknowledges.
 */
public final class ReplicationProcessor {

    private static final long MAX_HOLD_MILLIS = 30_000;

    private final MessageStore store;
    private final EpochFile epochs;
    private final InSyncReplicas replicas;
    private final ClusterMembership members;
    private final String brokerName;
    /** The master's own id: a slave claiming it is misconfigured (in controller mode any id may be master). */
    private final long brokerId;
    private final ScheduledExecutorService timer;
    private final Executor executor;
    /** Each slave's connection of its latest fetch. */
    private final Map<Long, RemotingConnection> fetchingOver = new ConcurrentHashMap<>();

    public ReplicationProcessor(MessageStore store, EpochFile epochs, InSyncReplicas replicas,
                                ClusterMembership members, String brokerName, long brokerId,
                                ScheduledExecutorService timer, Executor executor) {
        this.store = store;
        this.epochs = epochs;
        this.replicas = replicas;
        this.members = members;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
        this.timer = timer;
        this.executor = executor;
    }

    public Frame handshake(RemotingConnection connection, Frame request) {
        ReplicaHandshakeRequest req = request.header(ReplicaHandshakeRequest.class);
        members.requireBroker(connection, req.brokerName(), req.brokerId(), CommandCode.REPLICA_HANDSHAKE);
        if (!brokerName.equals(req.brokerName()) || req.brokerId() == brokerId) {
            throw new BrokerException(Refusal.REPLICA_REFUSED, "broker " + req.brokerName() + "/" + req.brokerId()
                    + " is no slave of group " + brokerName);
        }
        return request.reply(new ReplicaHandshakeResponse(epochs.entries(), store.maxPhysicalOffset(),
                store.minPhysicalOffset(), store.config().segmentSize()));
    }

    public CompletableFuture<Frame> fetch(RemotingConnection connection, Frame request) {
        ReplicaFetchRequest req = request.header(ReplicaFetchRequest.class);
        members.requireBroker(connection, brokerName, req.brokerId(), CommandCode.REPLICA_FETCH);
        if (req.maxBytes() < 1 || req.holdMillis() < 0 || req.offset() < 0) {
            throw new IllegalArgumentException("fetch of " + req.maxBytes() + " bytes from " + req.offset()
                    + ", held " + req.holdMillis() + " ms");
        }
        if (req.offset() > store.maxPhysicalOffset()) {
            throw new BrokerException(Refusal.REPLICA_REFUSED, "offset " + req.offset() + " is past the master's end "
                    + store.maxPhysicalOffset() + ": the slave must handshake and truncate");
        }
        watch(req.brokerId(), connection);
        replicas.fetched(req.brokerId(), req.offset(), store.maxPhysicalOffset());
        if (req.offset() < store.maxPhysicalOffset() || req.holdMillis() == 0) {
            return CompletableFuture.completedFuture(answer(request, req));
        }
        CompletableFuture<Void> due = new CompletableFuture<>();
        // written, not dispatched: under SYNC the dispatcher waits for this very fetch
        store.writtenTo(req.offset() + 1).thenRun(() -> due.complete(null));
        timer.schedule(() -> due.complete(null), Math.min(req.holdMillis(), MAX_HOLD_MILLIS), TimeUnit.MILLISECONDS);
        return due.thenApplyAsync(v -> answer(request, req), executor);
    }

    /** The first fetch of a slave over a connection: its close takes the slave out of the in-sync set. */
    private void watch(long slave, RemotingConnection connection) {
        if (fetchingOver.put(slave, connection) != connection) {
            connection.closeFuture().whenComplete((closed, failure) -> {
                if (fetchingOver.remove(slave, connection)) {
                    replicas.disconnected(slave);
                }
            });
        }
    }

    private Frame answer(Frame request, ReplicaFetchRequest req) {
        long end = store.maxPhysicalOffset();
        int max = (int) Math.min(Math.min(req.maxBytes(), ReplicaFetcher.MAX_FETCH_BYTES), epochs.epochEndAfter(req.offset())
                - req.offset());
        ByteBuffer bytes;
        try {
            bytes = store.readReplicable(req.offset(), max);
        } catch (RecordReadException e) {
            throw new BrokerException(Refusal.REPLICA_REFUSED, "cannot replicate from " + req.offset() + ": "
                    + e.getMessage());
        }
        replicas.answered(req.brokerId(), end);
        return request.reply(new ReplicaFetchResponse(req.offset(), epochs.epochAt(req.offset()), end),
                Unpooled.wrappedBuffer(bytes));
    }
}
