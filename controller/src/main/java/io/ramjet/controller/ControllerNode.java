package io.ramjet.controller;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One member of the controller group: a Ratis server holding the {@link ControllerStateMachine},
 * and, while it is the leader, the check that replaces masters which stopped heartbeating. Embed
 * it in a NameServer or run it alone ({@link ControllerMain}); {@link #close} stops it.
 *
 * <p>A master is replaced within {@code brokerTimeout + brokerTimeout / 20} of its last heartbeat
 * plus one Raft commit once a replica of its group reports losing its connection to it, or once
 * the master itself registers again (a new run of it, see {@code ControllerStateMachine}), and
 * within {@code silentMasterTimeout} (plus the same) without either, as long as a leader stands
 * (a new leader counts from its own start, as {@link Liveness} says).
 */
public final class ControllerNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerNode.class);

    private final ControllerConfig config;
    private final RaftServer server;
    private final ControllerStateMachine stateMachine;
    private final ControllerClient elections;
    private final ScheduledExecutorService checker;
    /** Broker name → when (nanos) an election found no candidate, to retry once a timeout later, not every tick. */
    private final Map<String, Long> fruitless = new ConcurrentHashMap<>();

    private ControllerNode(ControllerConfig config, RaftServer server, ControllerStateMachine stateMachine) {
        this.config = config;
        this.server = server;
        this.stateMachine = stateMachine;
        this.elections = ControllerClient.connect(config.group(), config.secret(), config.silentMasterTimeout(),
                config.tls());
        this.checker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "controller-" + config.nodeId() + "-master-check");
            thread.setDaemon(true);
            return thread;
        });
        // frequent, as the check is cheap: it reads the leader's own table and writes nothing unless it elects
        long period = Math.max(1, config.brokerTimeout().toMillis() / 20);
        checker.scheduleWithFixedDelay(this::replaceSilentMasters, period, period, TimeUnit.MILLISECONDS);
    }

    public static ControllerNode start(ControllerConfig config) throws IOException {
        ControllerStateMachine stateMachine = new ControllerStateMachine(
                new Liveness(config.brokerTimeout(), config.silentMasterTimeout(), System::nanoTime),
                new ControllerSignature(config.secret()));
        RaftServer server = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(config.nodeId()))
                .setGroup(config.group().raftGroup())
                .setStateMachine(stateMachine)
                .setProperties(properties(config))
                .setParameters(config.tls() == null ? new Parameters() : config.tls().parameters())
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        try {
            server.start();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        LOG.info("controller {} started in {} with group {}", config.nodeId(), config.dataDir(), config.group());
        return new ControllerNode(config, server, stateMachine);
    }

    private static RaftProperties properties(ControllerConfig config) {
        RaftProperties properties = new RaftProperties();
        // Ratis's Netty transport, or gRPC with mutual TLS, refusing Ratis's administrative requests
        RaftConfigKeys.Rpc.setType(properties, new ControllerRpc());
        ControllerPeer self = config.group().peer(config.nodeId());
        if (config.tls() == null) {
            NettyConfigKeys.Server.setHost(properties, self.host());
            NettyConfigKeys.Server.setPort(properties, self.port());
        } else {
            // one port for the server-to-server, client and administration services
            GrpcConfigKeys.Server.setHost(properties, self.host());
            GrpcConfigKeys.Server.setPort(properties, self.port());
        }
        RaftServerConfigKeys.setStorageDir(properties, List.of(config.dataDir().toFile()));
        long raftMillis = config.raftTimeout().toMillis();
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, TimeDuration.valueOf(raftMillis, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, TimeDuration.valueOf(2 * raftMillis, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, config.snapshotEvery());
        // the state is small and a snapshot holds all of it: keep no log a snapshot covers
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        RaftServerConfigKeys.Log.setPurgeGap(properties, 1);
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(config.logSegmentBytes()));
        return properties;
    }

    public String id() {
        return config.nodeId();
    }

    public boolean isLeader() {
        return info().isLeader();
    }

    private DivisionInfo info() {
        try {
            return server.getDivision(config.group().raftGroup().getGroupId()).getInfo();
        } catch (IOException e) {
            throw new IllegalStateException("controller " + config.nodeId() + " has no Raft division", e);
        }
    }

    private void replaceSilentMasters() {
        try {
            if (!info().isLeaderReady()) {
                return;
            }
            for (ReplicaInfo group : stateMachine.groups()) {
                if (group.hasMaster() && !stateMachine.masterMayBeAlive(group) && !recentlyFruitless(group.brokerName())) {
                    elect(group);
                }
            }
        } catch (RuntimeException | IOException e) {
            LOG.warn("controller {}: master check failed", config.nodeId(), e);
        }
    }

    private void elect(ReplicaInfo group) throws IOException {
        LOG.warn("controller {}: master {} of {} (epoch {}) is gone; electing", config.nodeId(),
                group.masterId(), group.brokerName(), group.epoch());
        ControllerReply reply = elections.electMaster(group.brokerName(), config.uncleanElection());
        if (reply.status() == ControllerStatus.NO_CANDIDATE) {
            fruitless.put(group.brokerName(), System.nanoTime());
            LOG.error("controller {}: {} has no live in-sync replica to replace master {}; it stays without a live"
                    + " master (unclean election is {})", config.nodeId(), group.brokerName(), group.masterId(),
                    config.uncleanElection() ? "on" : "off");
        } else {
            fruitless.remove(group.brokerName());
            LOG.info("controller {}: election for {}: {}, master {} of epoch {}", config.nodeId(), group.brokerName(),
                    reply.status(), reply.info().masterId(), reply.info().epoch());
        }
    }

    private boolean recentlyFruitless(String brokerName) {
        Long at = fruitless.get(brokerName);
        return at != null && System.nanoTime() - at < config.brokerTimeout().toNanos();
    }

    @Override
    public void close() throws IOException {
        checker.shutdownNow();
        try {
            elections.close();
        } finally {
            server.close();
        }
        LOG.info("controller {} stopped", config.nodeId());
    }
}
