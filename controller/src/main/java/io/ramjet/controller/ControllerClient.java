package io.ramjet.controller;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.ElectMaster;
import io.ramjet.controller.ControllerRequest.GetReplicaInfo;
import io.ramjet.controller.ControllerRequest.Heartbeat;
import io.ramjet.controller.ControllerRequest.RegisterBroker;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A broker's (or an operator's) handle on the controller group. Every call goes to the Ratis
 * leader, found and followed by Ratis's client across leader changes; a call that finds no
 * leader within its {@code timeout} throws {@link IOException}. Thread-safe.
 */
public final class ControllerClient implements AutoCloseable {

    private static final long RETRY_SLEEP_MILLIS = 100;

    private final RaftClient raft;
    private final Duration timeout;
    private volatile boolean closed;

    private ControllerClient(RaftClient raft, Duration timeout) {
        this.raft = raft;
        this.timeout = timeout;
    }

    /** @param timeout how long one call keeps retrying while the group has no reachable leader */
    public static ControllerClient connect(ControllerGroup group, Duration timeout) {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(
                Math.max(RETRY_SLEEP_MILLIS, timeout.toMillis() / 3), TimeUnit.MILLISECONDS));
        int attempts = (int) Math.max(1, timeout.toMillis() / RETRY_SLEEP_MILLIS);
        return new ControllerClient(RaftClient.newBuilder()
                .setProperties(properties)
                .setRaftGroup(group.raftGroup())
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(attempts,
                        TimeDuration.valueOf(RETRY_SLEEP_MILLIS, TimeUnit.MILLISECONDS)))
                .build(), timeout);
    }

    /** Joins (or rejoins) {@code brokerName}; the group's first broker becomes its master at epoch 1. */
    public ControllerReply register(String brokerName, long brokerId, String address, long maxOffset) throws IOException {
        return write(new RegisterBroker(brokerName, brokerId, address, maxOffset));
    }

    /** Reports the broker alive; the reply says who is master, in which epoch, and who is in sync. */
    public ControllerReply heartbeat(String brokerName, long brokerId, long maxOffset) throws IOException {
        return read(new Heartbeat(brokerName, brokerId, maxOffset));
    }

    /** The master of {@code epoch} sets its in-sync set; refused as STALE_EPOCH once a newer epoch began. */
    public ControllerReply alterInSyncSet(String brokerName, long masterId, int epoch, Set<Long> inSync) throws IOException {
        return write(new AlterInSyncSet(brokerName, masterId, epoch, inSync));
    }

    /** Replaces the master if the leader has not heard it within the broker timeout. */
    public ControllerReply electMaster(String brokerName, boolean unclean) throws IOException {
        return write(new ElectMaster(brokerName, unclean));
    }

    public ControllerReply replicaInfo(String brokerName) throws IOException {
        return read(new GetReplicaInfo(brokerName));
    }

    /** What one controller node has applied so far, leader or not: for operators and tests. */
    public ControllerReply replicaInfoAt(String nodeId, String brokerName) throws IOException {
        Message message = message(new GetReplicaInfo(brokerName));
        return call(() -> raft.io().sendStaleRead(message, 0, RaftPeerId.valueOf(nodeId)));
    }

    /** The controller node that answered this client's last call as leader, if any has. */
    public Optional<String> leader() {
        return Optional.ofNullable(raft.getLeaderId()).map(RaftPeerId::toString);
    }

    private ControllerReply write(ControllerRequest request) throws IOException {
        Message message = message(request);
        return call(() -> raft.io().send(message));
    }

    private ControllerReply read(ControllerRequest request) throws IOException {
        Message message = message(request);
        return call(() -> raft.io().sendReadOnly(message));
    }

    private interface RaftCall {
        RaftClientReply send() throws IOException;
    }

    /**
     * Ratis's Netty client closes the connection to a peer that failed; a call on another thread
     * that picked that connection meanwhile fails with {@link AlreadyClosedException}, or with an
     * {@link IllegalStateException} from the closed connection's life cycle ("current state
     * CLOSED"), although this client is open. That call is tried again, within the timeout.
     */
    private ControllerReply call(RaftCall call) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return decode(call.send());
            } catch (AlreadyClosedException | IllegalStateException e) {
                if (closed || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                pauseBeforeRetry();
            }
        }
    }

    private static Message message(ControllerRequest request) {
        return Message.valueOf(ByteString.copyFrom(ControllerCodec.encode(request)));
    }

    private static ControllerReply decode(RaftClientReply reply) throws IOException {
        if (!reply.isSuccess()) {
            throw new IOException("controller call failed", reply.getException());
        }
        return ControllerCodec.decodeReply(reply.getMessage().getContent().toByteArray());
    }

    private static void pauseBeforeRetry() throws InterruptedIOException {
        try {
            Thread.sleep(RETRY_SLEEP_MILLIS);
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
