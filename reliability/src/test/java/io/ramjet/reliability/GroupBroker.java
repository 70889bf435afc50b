package io.ramjet.reliability;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * A broker of a replicated group in controller mode ({@code Launcher broker -c FILE}), run as a
 * child process: its role comes from the controller group, so it is ready once its port accepts
 * connections. Its port, data directory and properties are kept across restarts.
 */
final class GroupBroker implements AutoCloseable {

    private final ChildJvm jvm;
    private final long brokerId;
    private final int port;
    private final Path dataDir;
    private final Path configFile;
    private final String nameServers;

    /**
     * @param properties  the broker's keys ({@code BrokerKeys}); port, data directory and
     *                    NameServers are given on the command line
     * @param nameServers {@code host:port,host:port,...}
     */
    GroupBroker(String name, long brokerId, int port, Path dataDir, Properties properties, String nameServers)
            throws IOException {
        this.jvm = new ChildJvm(name);
        this.brokerId = brokerId;
        this.port = port;
        this.dataDir = dataDir;
        this.nameServers = nameServers;
        Files.createDirectories(dataDir);
        this.configFile = dataDir.resolveSibling(name + ".properties");
        try (Writer out = Files.newBufferedWriter(configFile)) {
            properties.store(out, "broker " + name);
        }
    }

    long brokerId() {
        return brokerId;
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    Path dataDir() {
        return dataDir;
    }

    ChildJvm jvm() {
        return jvm;
    }

    /** Running and not paused. */
    boolean isServing() {
        return jvm.isServing();
    }

    /** Whether the broker's log (across its runs) holds {@code text}. */
    boolean logSays(String text) {
        try {
            return Files.readString(jvm.logFile(), StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    /** Starts the broker and waits until its port accepts. */
    void start() throws IOException {
        launch();
        awaitAccepting();
    }

    /** Starts the broker's JVM; it may serve only once the brokers it needs (its master) run too. */
    void launch() throws IOException {
        jvm.start(List.of("broker", "-c", configFile.toString(), "-p", Integer.toString(port),
                "--data-dir", dataDir.toString(), "-n", nameServers));
    }

    void awaitAccepting() throws IOException {
        jvm.awaitReady("broker port " + port + " accepting", ChildJvm.START_TIMEOUT, () -> ChildJvm.accepts(port));
    }

    /** {@code kill -9}: nothing flushed, nothing unregistered, no last heartbeat. */
    void kill() throws InterruptedException {
        jvm.end(true);
    }

    /** SIGTERM: the shutdown hook closes the store cleanly. */
    void stop() throws InterruptedException {
        jvm.end(false);
    }

    @Override
    public void close() {
        jvm.killQuietly();
    }
}
