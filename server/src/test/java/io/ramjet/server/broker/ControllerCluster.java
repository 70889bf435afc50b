package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.controller.ControllerClient;
import io.ramjet.controller.ControllerConfig;
import io.ramjet.controller.ControllerGroup;
import io.ramjet.controller.ControllerNode;
import io.ramjet.controller.ControllerPeer;
import io.ramjet.server.broker.ha.BrokerRole;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/**
 * In-process controller nodes and controlled brokers of group {@code g1} on 127.0.0.1 with
 * ephemeral ports, for the controller-mode tests; closes what it started.
 */
final class ControllerCluster implements AutoCloseable {

    static final Duration BROKER_TIMEOUT = Duration.ofMillis(2_000);
    static final Duration HEARTBEAT = Duration.ofMillis(300);

    final ControllerGroup group;
    private final Path dir;
    private final List<ControllerNode> nodes = new ArrayList<>();
    private final List<ControlledBroker> brokers = new ArrayList<>();
    private final List<DelayingProxy> proxies = new ArrayList<>();
    private final ControllerClient client;
    /** Whether controllers and brokers run with their default timeouts rather than the short ones above. */
    private final boolean defaults;

    ControllerCluster(Path dir, int controllers) throws IOException {
        this(dir, controllers, false);
    }

    /** With {@code defaults}, controllers and brokers keep their default heartbeat and timeouts. */
    ControllerCluster(Path dir, int controllers, boolean defaults) throws IOException {
        this.dir = dir;
        this.defaults = defaults;
        List<ControllerPeer> peers = new ArrayList<>();
        for (int i = 0; i < controllers; i++) {
            peers.add(new ControllerPeer("n" + i, "127.0.0.1", freePort()));
        }
        this.group = new ControllerGroup(peers);
        for (ControllerPeer peer : peers) {
            nodes.add(ControllerNode.start(defaults
                    ? ControllerConfig.of(peer.id(), dir.resolve(peer.id()), group, BrokerTestSupport.CLUSTER_SECRET)
                    : new ControllerConfig(peer.id(), dir.resolve(peer.id()), group, BROKER_TIMEOUT, false,
                            Duration.ofMillis(500), 10_000, 8L << 20, BrokerTestSupport.CLUSTER_SECRET)));
        }
        this.client = ControllerClient.connect(group, BrokerTestSupport.CLUSTER_SECRET, Duration.ofSeconds(10));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Broker {@code id} of group g1 in controller mode, its data in {@code dir/b<id>}. */
    BrokerConfig brokerConfig(long id, ReplicationConfig.Mode mode, int minInSync) {
        return brokerConfig(id, mode, minInSync, group.toString());
    }

    /** As {@link #brokerConfig(long, ReplicationConfig.Mode, int)}, reaching the controllers at {@code controllerAddresses}. */
    BrokerConfig brokerConfig(long id, ReplicationConfig.Mode mode, int minInSync, String controllerAddresses) {
        BrokerConfigBuilder builder = BrokerConfig.builder(dir.resolve("b" + id)).port(0).nameServers(List.of())
                .queuesPerDestination(2).brokerName("g1").brokerId(id).replicationMode(mode)
                .minInSyncReplicas(minInSync).replicaMaxLag(Duration.ofSeconds(3))
                .replicaSyncTimeout(Duration.ofSeconds(15)).controllerAddresses(controllerAddresses)
                .clusterSecret(BrokerTestSupport.CLUSTER_SECRET);
        if (!defaults) {
            builder.controllerHeartbeat(HEARTBEAT).controllerTimeout(BROKER_TIMEOUT);
        }
        builder.store().segmentSize(4 << 20).minFreeSpace(0).checkpointInterval(Duration.ofMillis(200));
        return builder.build();
    }

    /**
     * The controller group as a broker names it, each controller reached through a proxy that
     * hands its answers back {@code answerDelay} late (closed with the cluster).
     */
    String slowAnswers(Duration answerDelay) throws IOException {
        List<ControllerPeer> slow = new ArrayList<>();
        for (ControllerPeer peer : group.peers()) {
            DelayingProxy proxy = new DelayingProxy(peer.host(), peer.port(), answerDelay);
            proxies.add(proxy);
            slow.add(new ControllerPeer(peer.id(), "127.0.0.1", proxy.port()));
        }
        return new ControllerGroup(slow).toString();
    }

    ControlledBroker start(BrokerConfig config) throws Exception {
        ControlledBroker broker = new ControlledBroker(config);
        brokers.add(broker);
        broker.start();
        return broker;
    }

    ControllerClient client() {
        return client;
    }

    /** Group g1's in-sync set as the controllers committed it; empty while they do not answer. */
    Set<Long> inSync() {
        try {
            return client.replicaInfo("g1").info().inSync();
        } catch (IOException e) {
            return Set.of();
        }
    }

    void closeControllers() throws IOException {
        for (ControllerNode node : nodes) {
            node.close();
        }
        nodes.clear();
    }

    /** Waits until {@code broker} runs in {@code role}. */
    static void awaitRole(ControlledBroker broker, BrokerRole role, Duration within) {
        await(() -> role.equals(broker.role()), within, () -> "broker " + broker.config().brokerId() + " is "
                + broker.role() + ", not " + role);
    }

    /** Polls {@code condition} until it holds; fails, with what {@code what} tells then, once {@code within} passed. */
    static void await(BooleanSupplier condition, Duration within, Supplier<String> what) {
        Awaitility.await().atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertTrue(condition.getAsBoolean(), what));
    }

    @Override
    public void close() throws IOException {
        for (ControlledBroker broker : brokers) {
            broker.close();
        }
        client.close();
        for (DelayingProxy proxy : proxies) {
            proxy.close();
        }
        closeControllers();
    }
}
