package io.ramjet.server.embedded;

import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.Broker;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A NameServer and several brokers ({@code broker-0}, {@code broker-1}, ...) in this JVM on
 * ephemeral ports of 127.0.0.1, each with its own directory under one temporary directory that
 * {@link #close()} deletes. A broker can be stopped and restarted on its data and its port, for
 * tests of failover and recovery across brokers.
 */
public final class EmbeddedCluster implements AutoCloseable {

    private final NameServer nameServer;
    private final Path root;
    private final UnaryOperator<BrokerConfig> tuning;
    private final List<Broker> brokers = new ArrayList<>();
    /** One secret for the cluster's brokers, so that they answer each other's transaction queries. */
    private final ClusterSecret clusterSecret = ClusterSecret.of(ClusterSecret.generate());

    private EmbeddedCluster(NameServer nameServer, Path root, UnaryOperator<BrokerConfig> tuning) {
        this.nameServer = nameServer;
        this.root = root;
        this.tuning = tuning;
    }

    /** Starts a NameServer and {@code brokerCount} brokers with default settings. */
    public static EmbeddedCluster start(int brokerCount) {
        return start(brokerCount, UnaryOperator.identity());
    }

    /**
     * Starts a NameServer and {@code brokerCount} brokers, each configuration adjusted by
     * {@code tuning}; name, port, data directory and NameServer are set afterwards.
     */
    public static EmbeddedCluster start(int brokerCount, UnaryOperator<BrokerConfig> tuning) {
        if (brokerCount < 1) {
            throw new IllegalArgumentException("brokerCount " + brokerCount);
        }
        Path root;
        try {
            root = Files.createTempDirectory("ramjet-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
        // its brokers register as the cluster starts, before anyone asks
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0)
                .withRegistrationWindow(Duration.ZERO));
        EmbeddedCluster cluster = new EmbeddedCluster(nameServer, root, tuning);
        try {
            nameServer.start();
            for (int i = 0; i < brokerCount; i++) {
                cluster.brokers.add(cluster.startBroker(i, 0));
            }
            return cluster;
        } catch (RemotingException | NetworkException | RuntimeException e) {
            cluster.close();
            throw new IllegalStateException("embedded cluster failed to start", e);
        }
    }

    private Broker startBroker(int index, int port) throws NetworkException {
        Path dataDir = root.resolve("broker-" + index);
        BrokerConfig config = tuning.apply(EmbeddedBroker.defaults(dataDir)).toBuilder()
                .brokerName("broker-" + index)
                .port(port)
                .nameServers(List.of(nameServer.address()))
                .clusterSecret(clusterSecret)
                .build();
        Broker broker = new Broker(config);
        try {
            broker.start();
        } catch (NetworkException | RuntimeException e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    /** {@code 127.0.0.1:port} of the NameServer: what a {@code ramjet://} URL names. */
    public String nameServerAddress() {
        return nameServer.address();
    }

    public int brokerCount() {
        return brokers.size();
    }

    /** Broker {@code index}, or null while it is stopped. */
    public synchronized Broker broker(int index) {
        return brokers.get(index);
    }

    /** Stops broker {@code index} cleanly (checkpoint, unregistered); its data stays. */
    public synchronized void stopBroker(int index) {
        Broker broker = brokers.set(index, null);
        if (broker != null) {
            broker.close();
        }
    }

    /** Starts a stopped broker {@code index} again on its data directory and its former port. */
    public synchronized Broker restartBroker(int index, int port) {
        if (brokers.get(index) != null) {
            throw new IllegalStateException("broker-" + index + " is running");
        }
        try {
            Broker broker = startBroker(index, port);
            brokers.set(index, broker);
            return broker;
        } catch (NetworkException e) {
            throw new IllegalStateException("broker-" + index + " failed to restart", e);
        }
    }

    /** Stops every broker and the NameServer and deletes the data. */
    @Override
    public synchronized void close() {
        try {
            for (int i = 0; i < brokers.size(); i++) {
                stopBroker(i);
            }
            nameServer.close();
        } finally {
            EmbeddedBroker.deleteRecursively(root);
        }
    }
}
