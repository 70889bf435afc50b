package io.ramjet.bench.peer;

import io.ramjet.bench.workload.Workloads;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.controller.ControllerClient;
import io.ramjet.controller.ControllerGroup;
import io.ramjet.controller.ReplicaInfo;
import io.ramjet.server.broker.replication.ReplicationConfig;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JMS peer whose messages are replicated to brokers in other JVMs: a Ramjet master
 * and its slaves, or an Artemis live/backup pair with the replication HA policy. Every broker has
 * a JVM, a heap and a data directory of its own; one is the primary (the master, the live
 * broker), which the clients use and {@link #killPrimary()} kills. The heap, RSS and disk figures
 * are the primary's.
 */
public final class ReplicatedPeer extends ProcessGroupPeer {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedPeer.class);
    /** How long a new group may take until a persistent send is stored on every broker it needs. */
    private static final Duration READY_PATIENCE = Duration.ofMinutes(1);
    /** The primary's data directory in the peer's. */
    private static final String PRIMARY = "primary";
    /** The heap of a JVM holding a NameServer and a controller node: they hold routes and a small state. */
    private static final String CONTROLLER_HEAP = "256m";
    private static final String GROUP = "g1";
    private static final long POLL_NANOS = Duration.ofMillis(100).toNanos();

    private final PeerProcess primary;
    private final JmsClient client;

    private ReplicatedPeer(String name, TemporaryDirectory data, List<PeerProcess> processes, Started started) {
        super(name, data, processes);
        this.primary = started.primary();
        this.client = started.client();
    }

    /**
     * A Ramjet master (NameServer and broker, {@link RamjetServerMain}) and {@code slaves} slaves
     * ({@link RamjetSlaveMain}) in {@code mode}, roles set by configuration; ready once a
     * persistent send has been answered (under SYNC with {@code minInSyncReplicas} counting every
     * broker: once every slave is in sync).
     */
    public static ReplicatedPeer ramjet(String name, String heap, int segmentMiB, ReplicationConfig.Mode mode,
                                        int minInSyncReplicas, int slaves) throws IOException {
        String[] segment = segmentMiB > 0 ? new String[] {Integer.toString(segmentMiB)} : new String[0];
        List<String> replication = List.of("-D" + RamjetReplication.MODE + "=" + mode,
                "-D" + RamjetReplication.MIN_IN_SYNC + "=" + minInSyncReplicas);
        int brokerPort = PeerProcess.freePort();
        return start(name, (data, processes) -> {
            List<String> master = new ArrayList<>(replication);
            master.add("-D" + RamjetReplication.BROKER_PORT + "=" + brokerPort);
            processes.add(PeerProcess.start(RamjetServerMain.class, heap, PeerClassPath.distribution("ramjet"), master,
                    data.path().resolve(PRIMARY), segment));
            for (int id = 1; id <= slaves; id++) {
                List<String> slave = new ArrayList<>(replication);
                slave.add("-D" + RamjetReplication.MASTER_ADDRESS + "=127.0.0.1:" + brokerPort);
                slave.add("-D" + RamjetReplication.BROKER_ID + "=" + id);
                processes.add(PeerProcess.start(RamjetSlaveMain.class, heap, PeerClassPath.distribution("ramjet"), slave,
                        data.path().resolve("slave-" + id), segment));
            }
            return new Started(processes.get(0),
                    JmsClient.ramjet("ramjet://127.0.0.1:" + processes.get(0).port()));
        });
    }

    /**
     * A Ramjet group in controller mode, deployed as docs/high-availability.md describes it: three
     * NameServers each with a node of the controller group ({@link RamjetControllerMain}, heap
     * {@value #CONTROLLER_HEAP}) and three brokers ({@link RamjetGroupBrokerMain}) whose roles the
     * controllers give, in {@code mode} with {@code minInSyncReplicas}; the controllers judge a
     * broker gone after {@code brokerTimeout}. The client's URL names the three NameServers. Ready
     * once broker 1 is master with every broker in its in-sync set, and a persistent send has been
     * answered; the primary is broker 1.
     */
    public static ReplicatedPeer ramjetControlled(String name, String heap, int segmentMiB, ReplicationConfig.Mode mode,
                                                  int minInSyncReplicas, Duration brokerTimeout) throws IOException {
        return start(name, (data, processes) -> {
            int[] raftPorts = {PeerProcess.freePort(), PeerProcess.freePort(), PeerProcess.freePort()};
            StringBuilder peers = new StringBuilder();
            for (int i = 0; i < raftPorts.length; i++) {
                peers.append(i == 0 ? "" : ",").append("n").append(i).append("=127.0.0.1:").append(raftPorts[i]);
            }
            List<String> nameServers = new ArrayList<>();
            for (int i = 0; i < raftPorts.length; i++) {
                PeerProcess nameServer = PeerProcess.start(RamjetControllerMain.class, CONTROLLER_HEAP, PeerClassPath.distribution("ramjet"),
                        List.of("-Dcontroller.id=n" + i, "-Dcontroller.peers=" + peers,
                                "-Dcontroller.brokerTimeoutMillis=" + brokerTimeout.toMillis(),
                                "-Dcontroller.clusterSecret=" + RamjetReplication.CLUSTER_SECRET),
                        data.path().resolve("ns" + i));
                processes.add(nameServer);
                nameServers.add("127.0.0.1:" + nameServer.port());
            }
            String nameServerList = String.join(",", nameServers);
            PeerProcess first = null;
            for (int id = 1; id <= raftPorts.length; id++) {
                List<String> keys = new ArrayList<>(List.of("brokerName=" + GROUP, "brokerId=" + id,
                        "replicationMode=" + mode, "minInSyncReplicas=" + minInSyncReplicas,
                        "controllerAddresses=" + peers, "controllerTimeoutMs=" + brokerTimeout.toMillis(),
                        "nameServers=" + nameServerList, "clusterSecret=" + RamjetReplication.CLUSTER_SECRET));
                if (segmentMiB > 0) {
                    keys.add("segmentSize=" + ((long) segmentMiB << 20));
                }
                PeerProcess broker = PeerProcess.start(RamjetGroupBrokerMain.class, heap, PeerClassPath.distribution("ramjet"),
                        keys.stream().map(k -> "-D" + RamjetGroupBrokerMain.PREFIX + k).toList(),
                        data.path().resolve(id == 1 ? PRIMARY : "broker-" + id));
                processes.add(broker);
                first = first == null ? broker : first;
            }
            awaitInSync(peers.toString(), raftPorts.length);
            return new Started(first, JmsClient.ramjet("ramjet://" + nameServerList));
        });
    }

    /**
     * An Artemis live broker and its backup ({@link ArtemisServerMain} with
     * {@link ArtemisReplication}), each configured as the artemis peer is, on Artemis's Netty,
     * reached by a Core client configured for failover as Artemis's documentation has it: both
     * brokers in the URL, {@code ha=true}, {@code reconnectAttempts=-1}; ready once the backup
     * has synchronised with the live broker.
     */
    public static ReplicatedPeer artemis(String heap, long sendWindowBytes, long bufferTimeoutNanos)
            throws IOException {
        String[] timeout = bufferTimeoutNanos > 0 ? new String[] {Long.toString(bufferTimeoutNanos)} : new String[0];
        int primaryPort = PeerProcess.freePort();
        int backupPort = PeerProcess.freePort();
        return start("artemis-replicated", (data, processes) -> {
            List<String> nativeLibrary = ArtemisNative.jvmArgs(data.path());
            processes.add(PeerProcess.start(primaryPort, ArtemisServerMain.class, heap, PeerClassPath.distribution(),
                    artemisArgs(nativeLibrary, "primary", backupPort), data.path().resolve(PRIMARY), timeout));
            processes.add(PeerProcess.start(backupPort, ArtemisServerMain.class, heap, PeerClassPath.distribution(),
                    artemisArgs(nativeLibrary, "backup", primaryPort), data.path().resolve("backup"), timeout));
            return new Started(processes.get(0), JmsClient.artemis("(tcp://127.0.0.1:" + primaryPort
                    + ",tcp://127.0.0.1:" + backupPort + ")?ha=true&reconnectAttempts=-1&useEpoll=true",
                    JmsPeer.artemisConfirmationWindow(sendWindowBytes)));
        });
    }

    /** Starts a peer's JVMs, adding each to {@code processes} as it starts (so a failure stops those). */
    private interface Starter {
        Started start(TemporaryDirectory data, List<PeerProcess> processes) throws IOException;
    }

    /** The JVM of the broker the clients use, and their client. */
    private record Started(PeerProcess primary, JmsClient client) {
    }

    private static ReplicatedPeer start(String name, Starter starter) throws IOException {
        TemporaryDirectory data = new TemporaryDirectory(name + "-peer");
        List<PeerProcess> processes = new ArrayList<>();
        try {
            Started started = starter.start(data, processes);
            awaitStored(started.client().factory());
            return new ReplicatedPeer(name, data, processes, started);
        } catch (IOException | RuntimeException e) {
            stop(processes, data);
            throw e;
        }
    }

    /** A broker of the pair: its native journal binding, its role and its partner's port. */
    private static List<String> artemisArgs(List<String> nativeLibrary, String role, int partnerPort) {
        List<String> args = new ArrayList<>(nativeLibrary);
        args.add("-D" + ArtemisReplication.ROLE + "=" + role);
        args.add("-D" + ArtemisReplication.PARTNER_PORT + "=" + partnerPort);
        return args;
    }

    /** Waits until the controllers name broker 1 master with {@code brokers} brokers in sync. */
    private static void awaitInSync(String peers, int brokers) throws IOException {
        long deadline = System.nanoTime() + READY_PATIENCE.toNanos();
        ReplicaInfo info = null;
        try (ControllerClient controllers = ControllerClient.connect(ControllerGroup.parse(peers),
                ClusterSecret.of(RamjetReplication.CLUSTER_SECRET), Duration.ofSeconds(5))) {
            do {
                try {
                    info = controllers.replicaInfo(GROUP).info();
                    if (info != null && info.masterId() == 1 && info.inSync().size() == brokers) {
                        return;
                    }
                } catch (IOException notYet) {
                    LOG.debug("the controllers do not answer yet", notYet);
                }
                LockSupport.parkNanos(POLL_NANOS);
            } while (System.nanoTime() - deadline < 0);
        }
        throw new IOException("the group was not in sync within " + READY_PATIENCE + ": " + info);
    }

    /** Sends persistent messages until one is answered, or fails after {@link #READY_PATIENCE}. */
    private static void awaitStored(ConnectionFactory factory) throws IOException {
        long deadline = System.nanoTime() + READY_PATIENCE.toNanos();
        JMSException last = null;
        do {
            try (Connection c = factory.createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("peer.ready"));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                p.send(s.createTextMessage("ready"));
                return;
            } catch (JMSException e) {
                LOG.info("the replicated peer is not ready yet: {}", e.getMessage());
                last = e;
            }
        } while (System.nanoTime() - deadline < 0);
        throw new IOException("no persistent send was answered within " + READY_PATIENCE, last);
    }

    /** Kills the primary's JVM as {@code kill -9} would and returns once it has exited. */
    public void killPrimary() throws InterruptedException {
        primary.kill();
    }

    @Override
    public Workloads workloads(int producers, int consumers) throws IOException {
        return client.process(producers, consumers);
    }

    /** The broker JVMs' settings, then the client's. */
    @Override
    public Map<String, String> settings() {
        Map<String, String> all = new LinkedHashMap<>(super.settings());
        all.putAll(client.settings());
        return all;
    }

    @Override
    public long liveHeapBytes() throws IOException {
        return primary.liveHeapBytes();
    }

    @Override
    public long diskBytes() throws IOException {
        return DiskUsage.of(data().path().resolve(PRIMARY));
    }

    @Override
    public long residentBytes() {
        return primary.residentBytes();
    }
}
