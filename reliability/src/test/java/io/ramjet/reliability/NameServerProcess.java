package io.ramjet.reliability;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * A NameServer with a controller node embedded ({@code Launcher namesrv} with the
 * {@code controller.*} properties of its node), run as a child process. Its NameServer and Raft
 * ports and its controller data directory are picked once and kept across restarts.
 */
final class NameServerProcess implements AutoCloseable {

    private final ChildJvm jvm;
    private final String nodeId;
    private final int port;
    private final int raftPort;
    private final Path dataDir;
    private Path configFile;

    NameServerProcess(String name, String nodeId, int port, int raftPort, Path dataDir) throws IOException {
        this.jvm = new ChildJvm(name);
        this.nodeId = nodeId;
        this.port = port;
        this.raftPort = raftPort;
        this.dataDir = dataDir;
    }

    String nodeId() {
        return nodeId;
    }

    int port() {
        return port;
    }

    /** {@code id=127.0.0.1:raftPort}, this node's item of {@code controller.peers}. */
    String peer() {
        return nodeId + "=127.0.0.1:" + raftPort;
    }

    ChildJvm jvm() {
        return jvm;
    }

    /**
     * Writes the node's controller properties (once) and starts it; returns once the NameServer
     * port accepts connections (the controller elects on its own time).
     *
     * @param peers         {@code controller.peers}, the whole group
     * @param brokerTimeout {@code controller.brokerTimeoutMillis}
     * @param more          further {@code controller.*} properties
     */
    void start(String peers, Duration brokerTimeout, Properties more) throws IOException {
        if (configFile == null) {
            Properties controller = new Properties();
            controller.putAll(more);
            controller.setProperty("controller.id", nodeId);
            controller.setProperty("controller.peers", peers);
            controller.setProperty("controller.dataDir", dataDir.resolve("controller").toString());
            controller.setProperty("controller.brokerTimeoutMillis", Long.toString(brokerTimeout.toMillis()));
            controller.setProperty("controller.raftTimeoutMillis", "500");
            controller.setProperty("controller.clusterSecret", HaCluster.CLUSTER_SECRET);
            configFile = dataDir.resolve("namesrv.properties");
            try (Writer out = Files.newBufferedWriter(configFile)) {
                controller.store(out, "NameServer and controller " + nodeId);
            }
        }
        start();
    }

    /** Starts it again on the same ports and data. */
    void start() throws IOException {
        jvm.start(List.of("namesrv", "-p", Integer.toString(port), "--controller-config", configFile.toString()));
        jvm.awaitReady("NameServer port " + port + " accepting", ChildJvm.START_TIMEOUT, () -> ChildJvm.accepts(port));
    }

    void kill() throws InterruptedException {
        jvm.end(true);
    }

    @Override
    public void close() {
        jvm.killQuietly();
    }
}
