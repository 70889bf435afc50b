package io.ramjet.controller;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.ElectMaster;
import io.ramjet.controller.ControllerRequest.GetReplicaInfo;
import io.ramjet.controller.ControllerRequest.Heartbeat;
import io.ramjet.controller.ControllerRequest.MasterLost;
import io.ramjet.controller.ControllerRequest.RegisterBroker;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.protocol.exceptions.GroupMismatchException;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A broker's (or an operator's) handle on the controller group. Every call goes to the Ratis
 * leader, found and followed by Ratis's client across leader changes, and ends within its
 * {@code timeout}: one that gets no answer by then throws {@link ControllerUnavailableException}
 * (it may overrun by one Ratis request, at most a third of the timeout). A connection that failed
 * is opened again on the next attempt, so a controller restarted at its address is reached again.
 * Every request is signed with the cluster secret and every reply must be
 * ({@link ControllerSignature}): the controllers hear members of the cluster only, and a member
 * takes no answer from an impostor. Thread-safe.
 */
public final class ControllerClient implements AutoCloseable {

    private static final long PAUSE_MILLIS = 100;
    /** One Ratis request's share of a call's timeout: a lost request costs that, not the whole call. */
    private static final int REQUESTS_PER_TIMEOUT = 3;

    private final RaftClient raft;
    private final ControllerSignature signature;
    private final CallDeadlines deadlines;
    private final Duration timeout;
    private volatile boolean closed;

    private ControllerClient(RaftClient raft, ControllerSignature signature, CallDeadlines deadlines,
                             Duration timeout) {
        this.raft = raft;
        this.signature = signature;
        this.deadlines = deadlines;
        this.timeout = timeout;
    }

    /**
     * @param secret  the cluster secret the controllers hold
     * @param timeout how long one call keeps trying while the group has no reachable leader
     */
    public static ControllerClient connect(ControllerGroup group, ClusterSecret secret, Duration timeout) {
        return connect(group, secret, timeout, null);
    }

    /**
     * As {@link #connect(ControllerGroup, ClusterSecret, Duration)}, over the group's mutual TLS
     * presenting {@code tls}'s certificate, or without TLS when {@code tls} is null.
     */
    public static ControllerClient connect(ControllerGroup group, ClusterSecret secret, Duration timeout,
                                           ControllerTls tls) {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, tls == null ? SupportedRpcType.NETTY : SupportedRpcType.GRPC);
        long requestMillis = Math.max(PAUSE_MILLIS, timeout.toMillis() / REQUESTS_PER_TIMEOUT);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(requestMillis, TimeUnit.MILLISECONDS));
        CallDeadlines deadlines = new CallDeadlines(PAUSE_MILLIS);
        return new ControllerClient(RaftClient.newBuilder()
                .setProperties(properties)
                .setParameters(tls == null ? new Parameters() : tls.parameters())
                .setRaftGroup(group.raftGroup())
                .setRetryPolicy(deadlines)
                .build(), new ControllerSignature(secret), deadlines, timeout);
    }

    /** Joins (or rejoins) {@code brokerName}; the group's first broker becomes its master at epoch 1. */
    public ControllerReply register(String brokerName, long brokerId, String address, long maxOffset) throws IOException {
        return write(new RegisterBroker(brokerName, brokerId, address, maxOffset));
    }

    /** Reports the broker alive; the reply says who is master, in which epoch, and who is in sync. */
    public ControllerReply heartbeat(String brokerName, long brokerId, long maxOffset) throws IOException {
        return read(new Heartbeat(brokerName, brokerId, maxOffset));
    }

    /**
     * A heartbeat from replica {@code brokerId} whose connection to the master of {@code epoch} is
     * lost; answered as {@link #heartbeat}.
     */
    public ControllerReply masterLost(String brokerName, long brokerId, long maxOffset, int epoch) throws IOException {
        return read(new MasterLost(brokerName, brokerId, maxOffset, epoch));
    }

    /** The master of {@code epoch} sets its in-sync set; refused as STALE_EPOCH once a newer epoch began. */
    public ControllerReply alterInSyncSet(String brokerName, long masterId, int epoch, Set<Long> inSync) throws IOException {
        return write(new AlterInSyncSet(brokerName, masterId, epoch, inSync));
    }

    /** Replaces the master if the leader holds it dead (see {@code ControllerNode}). */
    public ControllerReply electMaster(String brokerName, boolean unclean) throws IOException {
        return write(new ElectMaster(brokerName, unclean));
    }

    public ControllerReply replicaInfo(String brokerName) throws IOException {
        return read(new GetReplicaInfo(brokerName));
    }

    /** What one controller node has applied so far, leader or not: for operators and tests. */
    public ControllerReply replicaInfoAt(String nodeId, String brokerName) throws IOException {
        ControllerRequest request = new GetReplicaInfo(brokerName);
        Message message = message(request);
        RaftPeerId node = RaftPeerId.valueOf(nodeId);
        return call(request, () -> node, () -> raft.io().sendStaleRead(message, 0, node));
    }

    /** The controller node that answered this client's last call as leader, if any has. */
    public Optional<String> leader() {
        return Optional.ofNullable(raft.getLeaderId()).map(RaftPeerId::toString);
    }

    private ControllerReply write(ControllerRequest request) throws IOException {
        Message message = message(request);
        return call(request, raft::getLeaderId, () -> raft.io().send(message));
    }

    private ControllerReply read(ControllerRequest request) throws IOException {
        Message message = message(request);
        return call(request, raft::getLeaderId, () -> raft.io().sendReadOnly(message));
    }

    private interface RaftCall {
        RaftClientReply send() throws IOException;
    }

    /**
     * Ratis retries within the deadline ({@link CallDeadlines}) but gives up at once on some
     * failures: a connection closed under the call ({@link AlreadyClosedException}, or an
     * {@link IllegalStateException} from the closed connection's life cycle, "current state
     * CLOSED"), a leader stepping down, a failed read addressed to one node. Ratis does not reopen
     * the connection after those, so this drops the connection to the node the call went to, and
     * tries again while time is left. Ratis 3.2's Netty client also throws a
     * {@link NullPointerException} ("proxy is null") when a call picks up the connection another
     * call is dropping at that moment (seen once in {@code ControllerProcessKillTest}, two callers
     * retrying while the leader was killed): the same race, handled the same way.
     */
    private ControllerReply call(ControllerRequest request, Supplier<RaftPeerId> target, RaftCall call) throws IOException {
        deadlines.begin(System.nanoTime() + timeout.toNanos());
        try {
            RaftClientReply reply;
            while (true) {
                RaftPeerId peer = target.get();
                try {
                    reply = call.send();
                    break;
                } catch (StateMachineException | GroupMismatchException | InterruptedIOException e) {
                    throw e;
                } catch (IOException | IllegalStateException | NullPointerException e) {
                    if (closed) {
                        throw e;
                    }
                    if (peer != null) {
                        raft.getClientRpc().handleException(peer, e, true);
                    }
                    if (!deadlines.timeLeft()) {
                        throw new ControllerUnavailableException(request.getClass().getSimpleName(), timeout, e);
                    }
                    pauseBeforeRetry();
                }
            }
            return decode(reply);
        } finally {
            deadlines.end();
        }
    }

    private Message message(ControllerRequest request) {
        return Message.valueOf(ByteString.copyFrom(signature.sign(ControllerSignature.Kind.REQUEST,
                ControllerCodec.encode(request), System.currentTimeMillis())));
    }

    private ControllerReply decode(RaftClientReply reply) throws IOException {
        if (!reply.isSuccess()) {
            throw new IOException("controller call failed", reply.getException());
        }
        return ControllerCodec.decodeReply(signature.open(ControllerSignature.Kind.REPLY,
                reply.getMessage().getContent().toByteArray()));
    }

    private void pauseBeforeRetry() throws InterruptedIOException {
        try {
            deadlines.pause().sleep();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted between controller call attempts");
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        raft.close();
    }
}
