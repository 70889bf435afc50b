package io.ramjet.controller;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.ElectMaster;
import io.ramjet.controller.ControllerRequest.Election;
import io.ramjet.controller.ControllerRequest.GetReplicaInfo;
import io.ramjet.controller.ControllerRequest.Heartbeat;
import io.ramjet.controller.ControllerRequest.MasterLost;
import io.ramjet.controller.ControllerRequest.MasterRestart;
import io.ramjet.controller.ControllerRequest.RegisterBroker;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The controller's Ratis state machine. Writes (register, alter in-sync set, election) are
 * applied from the Raft log in order by Ratis's one apply thread; heartbeats (a replica's report
 * that it lost its master included) and replica-info reads are queries answered from the applied
 * state. Liveness is the leader's own
 * ({@link Liveness}): on the leader, {@link #startTransaction} turns an {@code ElectMaster} into an
 * {@code Election} entry carrying that judgement, so followers apply the leader's decision rather
 * than their own clocks. Snapshots are one file of {@link ControllerCodec#encodeSnapshot} bytes,
 * signed as a {@code SNAPSHOT}.
 *
 * <p>Only members of the cluster are heard ({@link ControllerSignature}): a request not signed with
 * the cluster secret within the time window is refused before it reads or writes anything, every
 * log entry is signed by the leader that appended it and checked again as it is applied (an
 * entry without the signature, which only an impostor speaking Raft could have put in the log,
 * changes nothing), and every reply is signed.
 */
final class ControllerStateMachine extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerStateMachine.class);

    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    /** Guarded by itself: applied by Ratis's apply thread, read by query and snapshot threads. */
    private final ControllerState state = new ControllerState();
    private final Liveness liveness;
    private final ControllerSignature signature;

    ControllerStateMachine(Liveness liveness, ControllerSignature signature) {
        this.liveness = liveness;
        this.signature = signature;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        getLifeCycle().startAndTransition(() -> {
            super.initialize(server, groupId, raftStorage);
            storage.init(raftStorage);
            load(storage.getLatestSnapshot());
        });
    }

    /** Ratis pauses the state machine before it installs a snapshot from the leader in its place. */
    @Override
    public void pause() {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /** After a snapshot from the leader was installed: the state becomes that snapshot's. */
    @Override
    public void reinitialize() throws IOException {
        getLifeCycle().startAndTransition(() -> load(storage.loadLatestSnapshot()));
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        File file = snapshot.getFile().getPath().toFile();
        MD5FileUtil.verifySavedMD5(file, snapshot.getFile().getFileDigest());
        // the digest is only the sender's: a leader's snapshot is taken only if signed with the secret
        Collection<ReplicaInfo> groups = ControllerCodec.decodeSnapshot(signature.open(ControllerSignature.Kind.SNAPSHOT,
                Files.readAllBytes(file.toPath())));
        synchronized (state) {
            state.replaceAll(groups);
            setLastAppliedTermIndex(snapshot.getTermIndex());
        }
        LOG.info("controller state loaded from snapshot {}: {} broker groups", snapshot.getTermIndex(), groups.size());
    }

    @Override
    public long takeSnapshot() throws IOException {
        byte[] bytes;
        TermIndex last;
        synchronized (state) {
            last = getLastAppliedTermIndex();
            bytes = signature.sign(ControllerSignature.Kind.SNAPSHOT, ControllerCodec.encodeSnapshot(state.groups()),
                    System.currentTimeMillis());
        }
        if (last == null) {
            return RaftLog.INVALID_LOG_INDEX; // nothing applied yet, nothing to keep
        }
        File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        Path partial = file.toPath().resolveSibling(file.getName() + ".partial");
        // forced before the rename, since Ratis deletes the log this snapshot covers
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(partial, file.toPath(), StandardCopyOption.ATOMIC_MOVE);
        // and the rename too: a power loss could otherwise take back the snapshot's name
        try (FileChannel directory = FileChannel.open(file.toPath().getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        }
        MD5Hash digest = MD5FileUtil.computeAndSaveMd5ForFile(file);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), digest), last));
        return last.getIndex();
    }

    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
        ControllerRequest command;
        try {
            command = decode(request.getMessage());
        } catch (IOException refused) {
            // answered as this exception, nothing appended (thrown, Ratis would leave the request pending)
            return TransactionContext.newBuilder().setStateMachine(this).setClientRequest(request).build()
                    .setException(refused);
        }
        ControllerRequest entry;
        long now = System.currentTimeMillis();
        if (command instanceof ElectMaster elect) {
            entry = judge(elect);
        } else if (command instanceof RegisterBroker register) {
            try {
                entry = judge(register);
            } catch (IOException refused) {
                return TransactionContext.newBuilder().setStateMachine(this).setClientRequest(request).build()
                        .setException(refused);
            }
        } else if (command instanceof AlterInSyncSet) {
            entry = command;
        } else {
            return TransactionContext.newBuilder().setStateMachine(this).setClientRequest(request).build()
                    .setException(new IOException("not a controller write: " + command));
        }
        return TransactionContext.newBuilder()
                .setStateMachine(this)
                .setClientRequest(request)
                .setLogData(ByteString.copyFrom(signature.sign(ControllerSignature.Kind.ENTRY,
                        ControllerCodec.encode(entry), now)))
                .build();
    }

    private Election judge(ElectMaster elect) {
        ReplicaInfo group;
        synchronized (state) {
            group = state.view(elect.brokerName(), -1).info();
        }
        boolean masterAlive = group.hasMaster() && masterMayBeAlive(group);
        return new Election(group.brokerName(), group.epoch(), masterAlive, elect.unclean(),
                liveness.aliveOffsets(group.brokerName()));
    }

    /**
     * A registration from the group's master is a new run of it (a broker registers only as its
     * process starts, or when the controllers do not know it): the run that was master is gone,
     * and its log may end in records it wrote but never replicated, for which no write was
     * answered. With a live in-sync replica to take over, the registration becomes a
     * {@link MasterRestart} that elects that replica, so the restarted broker truncates that tail
     * as a replica instead of serving it; with no in-sync replica heard within the silent-master
     * timeout it stays master. The registration is refused, to be sent again, while the master was
     * heard within its lease (a run still alive under the same id would believe it holds the
     * lease), and while the in-sync replicas are late (heard within the silent-master timeout, not
     * within the lease) as on a loaded machine; it then counts as a report that the master is
     * lost, so the leader's check replaces it as soon as the lease ends and a replica is heard.
     */
    private ControllerRequest judge(RegisterBroker register) throws IOException {
        ReplicaInfo group;
        synchronized (state) {
            group = state.view(register.brokerName(), -1).info();
        }
        Map<Long, Long> alive = liveness.aliveOffsets(register.brokerName());
        boolean restartedMaster = group.hasMaster() && group.masterId() == register.brokerId();
        if (!restartedMaster
                || ControllerState.candidate(group, liveness.recentOffsets(register.brokerName()), true).isEmpty()) {
            liveness.heard(register.brokerName(), register.brokerId(), register.maxOffset());
            return register;
        }
        boolean replicaAlive = ControllerState.candidate(group, alive, true).isPresent();
        if (!replicaAlive || liveness.withinLease(group.brokerName(), group.masterId())) {
            liveness.masterLost(group.brokerName(), group.epoch());
            throw new IOException("master " + register.brokerId() + " of " + group.brokerName() + " (epoch "
                    + group.epoch() + ") registers again while "
                    + (replicaAlive ? "its previous run may still hold its lease" : "its in-sync replicas are late")
                    + ": register again");
        }
        LOG.info("master {} of {} (epoch {}) registers again: a live in-sync replica replaces it", register.brokerId(),
                group.brokerName(), group.epoch());
        return new MasterRestart(register, group.epoch(), alive);
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        ControllerRequest command;
        try {
            command = ControllerCodec.decodeRequest(signature.open(ControllerSignature.Kind.ENTRY,
                    entry.getStateMachineLogEntry().getLogData().toByteArray()));
        } catch (IOException | IllegalArgumentException e) {
            LOG.error("log entry {} is not signed with the cluster secret: not applied ({})", entry.getIndex(),
                    e.getMessage());
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        ControllerReply reply;
        synchronized (state) {
            reply = apply(command);
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        }
        if (command instanceof Election || command instanceof MasterRestart) {
            LOG.info("election for {} at index {}: {}, master {} of epoch {}", command.brokerName(), entry.getIndex(),
                    reply.status(), reply.info().masterId(), reply.info().epoch());
        }
        return CompletableFuture.completedFuture(toMessage(reply));
    }

    private ControllerReply apply(ControllerRequest command) {
        if (command instanceof RegisterBroker register) {
            return state.register(register);
        } else if (command instanceof AlterInSyncSet alter) {
            return state.alterInSyncSet(alter);
        } else if (command instanceof Election election) {
            return state.elect(election);
        } else if (command instanceof MasterRestart restart) {
            return state.restartMaster(restart);
        }
        throw new IllegalStateException("a log entry that is not a controller write: " + command);
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        ControllerRequest command;
        try {
            command = decode(request);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (command instanceof Heartbeat heartbeat) {
            if (isLeader()) {
                liveness.heard(heartbeat.brokerName(), heartbeat.brokerId(), heartbeat.maxOffset());
            }
            return CompletableFuture.completedFuture(toMessage(view(heartbeat.brokerName(), heartbeat.brokerId())));
        } else if (command instanceof MasterLost report) {
            if (isLeader()) {
                liveness.heard(report.brokerName(), report.brokerId(), report.maxOffset());
                liveness.masterLost(report.brokerName(), report.epoch());
            }
            return CompletableFuture.completedFuture(toMessage(view(report.brokerName(), report.brokerId())));
        } else if (command instanceof GetReplicaInfo) {
            return CompletableFuture.completedFuture(toMessage(view(command.brokerName(), -1)));
        }
        return CompletableFuture.failedFuture(new IOException("not a controller read: " + command));
    }

    /** Broker groups as last applied here, for the leader's expiry check. */
    Collection<ReplicaInfo> groups() {
        synchronized (state) {
            return state.groups();
        }
    }

    boolean masterMayBeAlive(ReplicaInfo group) {
        return liveness.masterMayBeAlive(group.brokerName(), group.masterId(), group.epoch());
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId newLeaderId) {
        if (member.getPeerId().equals(newLeaderId)) {
            liveness.restart();
            LOG.info("controller {} is the leader now", newLeaderId);
        }
    }

    private ControllerReply view(String brokerName, long brokerId) {
        synchronized (state) {
            return state.view(brokerName, brokerId);
        }
    }

    private boolean isLeader() {
        RaftServer server = getServer().getNow(null);
        try {
            return server != null && server.getDivision(getGroupId()).getInfo().isLeader();
        } catch (IOException e) {
            return false;
        }
    }

    /** A request signed with the cluster secret within the window, decoded. */
    private ControllerRequest decode(Message message) throws IOException {
        byte[] payload = signature.openFresh(ControllerSignature.Kind.REQUEST, message.getContent().toByteArray(),
                System.currentTimeMillis());
        try {
            return ControllerCodec.decodeRequest(payload);
        } catch (IllegalArgumentException e) {
            throw new IOException("undecodable controller request", e);
        }
    }

    private Message toMessage(ControllerReply reply) {
        return Message.valueOf(ByteString.copyFrom(signature.sign(ControllerSignature.Kind.REPLY,
                ControllerCodec.encode(reply), System.currentTimeMillis())));
    }
}
