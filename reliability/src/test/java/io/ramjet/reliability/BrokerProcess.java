package io.ramjet.reliability;

import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RemotingRamjetClient;
import io.ramjet.provider.message.SerializationAllowList;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The standalone server ({@code Launcher standalone}: NameServer and broker in one JVM) run as a
 * child process ({@link ChildJvm}). Its ports are picked once and kept across restarts, since
 * clients cache the NameServer address and the broker's route; its data directory is kept across
 * restarts too. Not thread-safe: one thread (the test's, or {@link Chaos}'s) drives it at a time.
 */
public final class BrokerProcess implements AutoCloseable {

    private final ChildJvm jvm;
    private final Path dataDir;
    private final boolean ownsDataDir;
    private final Path configFile;
    private final int nameServerPort;
    private final int brokerPort;
    /** Where a power-cutting broker's forces are shadowed ({@link ShadowFiles}); null for a plain one. */
    private final Path shadowDir;

    /**
     * @param name      names the log file
     * @param dataDir   the data directory, or null for a temporary one removed by {@link #close}
     * @param properties broker properties ({@code BrokerProperties} keys), empty for the defaults
     */
    public BrokerProcess(String name, Path dataDir, Properties properties) throws IOException {
        this(name, dataDir, properties, null);
    }

    private BrokerProcess(String name, Path dataDir, Properties properties, Path shadowDir) throws IOException {
        this.shadowDir = shadowDir;
        this.jvm = new ChildJvm(name);
        this.ownsDataDir = dataDir == null;
        this.dataDir = dataDir != null ? dataDir : Files.createTempDirectory("ramjet-rel-" + name + "-");
        this.configFile = properties.isEmpty() ? null : Files.createTempFile("ramjet-rel-" + name + "-", ".properties");
        if (configFile != null) {
            try (Writer out = Files.newBufferedWriter(configFile)) {
                properties.store(out, "reliability test " + name);
            }
        }
        int[] ports = ChildJvm.freePorts(2);
        this.nameServerPort = ports[0];
        this.brokerPort = ports[1];
    }

    public static BrokerProcess started(String name, Properties properties) throws IOException {
        BrokerProcess broker = new BrokerProcess(name, null, properties);
        broker.start();
        return broker;
    }

    /**
     * A broker ({@link PowerCutBroker}, with its defaults) whose {@link #kill} is a power cut: after
     * the {@code kill -9}, every file of its data directory is put back as its last forces left it
     * ({@link PowerCut}). Temporary data and shadow directories, removed by {@link #close}.
     */
    public static BrokerProcess powerCutting(String name) throws IOException {
        return new BrokerProcess(name, null, new Properties(), Files.createTempDirectory("ramjet-rel-" + name + "-shadow-"));
    }

    /** The URL a {@code RamjetConnectionFactory} takes. */
    public String url() {
        return "ramjet://127.0.0.1:" + nameServerPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return jvm.logFile();
    }

    public boolean isAlive() {
        return jvm.isAlive();
    }

    /** Starts the child JVM and returns once its broker is registered and routable. */
    public void start() throws IOException {
        if (shadowDir != null) {
            jvm.start(PowerCutBroker.class.getName(), List.of(Integer.toString(nameServerPort),
                    Integer.toString(brokerPort), dataDir.toString(), shadowDir.toString()));
            awaitServing();
            return;
        }
        List<String> arguments = new ArrayList<>(List.of("standalone",
                "--namesrv-port", Integer.toString(nameServerPort),
                "-p", Integer.toString(brokerPort),
                "--data-dir", dataDir.toString()));
        if (configFile != null) {
            arguments.add("-c");
            arguments.add(configFile.toString());
        }
        jvm.start(arguments);
        awaitServing();
    }

    private void awaitServing() throws IOException {
        jvm.awaitReady("broker port " + brokerPort + " accepting", ChildJvm.START_TIMEOUT, () -> ChildJvm.accepts(brokerPort));
        ConnectionInfo info = new ConnectionInfo("reliability-probe", List.of("127.0.0.1:" + nameServerPort), null,
                null, Duration.ofSeconds(1), SerializationAllowList.DEFAULT);
        RemotingRamjetClient client = new RemotingRamjetClient(info);
        try {
            jvm.awaitReady("a route to 127.0.0.1:" + brokerPort + " from the NameServer", ChildJvm.START_TIMEOUT,
                    () -> routes(client));
        } finally {
            client.close();
        }
    }

    /**
     * {@code kill -9}: nothing is flushed, nothing unregisters. For a {@link #powerCutting} broker,
     * a power cut: then every file is put back as its last forces left it.
     */
    public void kill() throws InterruptedException {
        jvm.end(true);
        if (shadowDir != null) {
            try {
                PowerCut.Result cut = PowerCut.apply(dataDir, shadowDir);
                System.out.println("RELIABILITY power cut of " + jvm.name() + ": " + cut.files() + " files rewritten as of "
                        + "their last force, " + cut.droppedBytes() + " unforced bytes lost");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot cut the power of " + dataDir, e);
            }
        }
    }

    /** SIGTERM: the server's shutdown hook stops it cleanly. */
    public void stop() throws InterruptedException {
        jvm.end(false);
    }

    public void restart() throws IOException {
        start();
    }

    /** The last {@code lines} lines of the child's log, for a failure message. */
    public String logTail(int lines) {
        return jvm.logTail(lines);
    }

    /** Kills the child if it runs and removes the temporary files (the log stays). */
    @Override
    public void close() {
        jvm.killQuietly();
        if (configFile != null) {
            TempDirs.delete(configFile);
        }
        if (ownsDataDir) {
            TempDirs.delete(dataDir);
        }
        if (shadowDir != null) {
            TempDirs.delete(shadowDir);
        }
    }

    private boolean routes(RemotingRamjetClient client) {
        try {
            return client.masterAddresses().get(2, TimeUnit.SECONDS).contains("127.0.0.1:" + brokerPort);
        } catch (Exception e) {
            return false;
        }
    }
}
