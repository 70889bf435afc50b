package io.ramjet.reliability;

import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RemotingRamjetClient;
import io.ramjet.provider.message.SerializationAllowList;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The standalone server ({@code Launcher standalone}: NameServer and broker in one JVM) run as a
 * child process with this JVM's {@code java} and classpath. Its ports are picked once and kept
 * across restarts, since clients cache the NameServer address and the broker's route; its data
 * directory is kept across restarts too. Output goes to one log file per broker under
 * {@code target/broker-logs}, appended across restarts, so a failing test can print its tail.
 * Not thread-safe: one thread (the test's, or {@link Chaos}'s) drives it at a time.
 */
public final class BrokerProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(50);

    private final String name;
    private final Path dataDir;
    private final boolean ownsDataDir;
    private final Path configFile;
    private final Path logFile;
    private final int nameServerPort;
    private final int brokerPort;
    private Process process;
    private int starts;

    /**
     * @param name      names the log file
     * @param dataDir   the data directory, or null for a temporary one removed by {@link #close}
     * @param properties broker properties ({@code BrokerProperties} keys), empty for the defaults
     */
    public BrokerProcess(String name, Path dataDir, Properties properties) throws IOException {
        this.name = name;
        this.ownsDataDir = dataDir == null;
        this.dataDir = dataDir != null ? dataDir : Files.createTempDirectory("ramjet-rel-" + name + "-");
        this.configFile = properties.isEmpty() ? null : Files.createTempFile("ramjet-rel-" + name + "-", ".properties");
        if (configFile != null) {
            try (Writer out = Files.newBufferedWriter(configFile)) {
                properties.store(out, "reliability test " + name);
            }
        }
        Path logDir = Path.of(System.getProperty("reliability.logDir", "target/broker-logs"));
        Files.createDirectories(logDir);
        this.logFile = logDir.resolve(name + ".log");
        Files.deleteIfExists(logFile);
        int[] ports = freePorts(2);
        this.nameServerPort = ports[0];
        this.brokerPort = ports[1];
    }

    public static BrokerProcess started(String name, Properties properties) throws IOException {
        BrokerProcess broker = new BrokerProcess(name, null, properties);
        broker.start();
        return broker;
    }

    /** The URL a {@code RamjetConnectionFactory} takes. */
    public String url() {
        return "ramjet://127.0.0.1:" + nameServerPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Starts the child JVM and returns once its broker is registered and routable. */
    public void start() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException(name + " is running");
        }
        starts++;
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-cp", System.getProperty("java.class.path"),
                "io.ramjet.server.standalone.Launcher", "standalone",
                "--namesrv-port", Integer.toString(nameServerPort),
                "-p", Integer.toString(brokerPort),
                "--data-dir", dataDir.toString()));
        if (configFile != null) {
            command.add("-c");
            command.add(configFile.toString());
        }
        Files.writeString(logFile, "==== " + LocalTime.now() + " start #" + starts + " of " + name + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
        awaitReady();
    }

    /** {@code kill -9}: nothing is flushed, nothing unregisters. */
    public void kill() throws InterruptedException {
        end(true);
    }

    /** SIGTERM: the server's shutdown hook stops it cleanly. */
    public void stop() throws InterruptedException {
        end(false);
    }

    public void restart() throws IOException {
        start();
    }

    /** The last {@code lines} lines of the child's log, for a failure message. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Kills the child if it runs and removes the temporary files (the log stays). */
    @Override
    public void close() {
        try {
            end(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (configFile != null) {
            TempDirs.delete(configFile);
        }
        if (ownsDataDir) {
            TempDirs.delete(dataDir);
        }
    }

    private void end(boolean forcibly) throws InterruptedException {
        if (process == null) {
            return;
        }
        if (forcibly) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private void awaitReady() throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!accepts(brokerPort)) {
            checkStarting(deadline, "broker port " + brokerPort + " never accepted a connection");
        }
        ConnectionInfo info = new ConnectionInfo("reliability-probe", List.of("127.0.0.1:" + nameServerPort), null,
                null, Duration.ofSeconds(1), SerializationAllowList.DEFAULT);
        RemotingRamjetClient client = new RemotingRamjetClient(info);
        try {
            while (!routes(client)) {
                checkStarting(deadline, "no route to 127.0.0.1:" + brokerPort + " from the NameServer");
            }
        } finally {
            client.close();
        }
    }

    /** Between two polls: a short pause, after checking that the child still starts. */
    private void checkStarting(long deadline, String problem) throws IOException {
        LockSupport.parkNanos(POLL.toNanos());
        if (!process.isAlive()) {
            throw new IOException(name + " exited with " + process.exitValue() + " while starting:\n" + logTail(40));
        }
        if (System.nanoTime() > deadline) {
            throw new IOException(name + ": " + problem + " within " + READY_TIMEOUT + ":\n" + logTail(40));
        }
    }

    private boolean routes(RemotingRamjetClient client) {
        try {
            return client.masterAddresses().get(2, TimeUnit.SECONDS).contains("127.0.0.1:" + brokerPort);
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int[] freePorts(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                socket.setReuseAddress(true);
                held.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
    }
}
