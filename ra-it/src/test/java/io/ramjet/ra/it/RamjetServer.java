package io.ramjet.ra.it;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

/**
 * Ramjet's standalone server (NameServer and broker in one JVM, {@code Launcher standalone}) as
 * a child process on this JVM's classpath, with ports and data directory kept across restarts
 * so that clients, Payara's pool and its activations find it again at the same address.
 */
final class RamjetServer implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final LoggedProcess process;
    private final Path dataDir;
    private final Path configFile;
    private final int nameServerPort;
    private final int brokerPort;

    RamjetServer(Path dataDir, Path logFile, Properties brokerProperties) throws IOException {
        this.process = new LoggedProcess(logFile);
        this.dataDir = dataDir;
        this.configFile = dataDir.resolveSibling("broker.properties");
        try (Writer out = Files.newBufferedWriter(configFile)) {
            brokerProperties.store(out, "ra-it broker");
        }
        int[] ports = LoggedProcess.freePorts(2);
        this.nameServerPort = ports[0];
        this.brokerPort = ports[1];
    }

    String url() {
        return "ramjet://127.0.0.1:" + nameServerPort;
    }

    /** Starts the server and returns once its broker port accepts connections. */
    void start() throws IOException {
        process.start(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"),
                "io.ramjet.server.standalone.Launcher", "standalone",
                "--namesrv-port", Integer.toString(nameServerPort),
                "-p", Integer.toString(brokerPort),
                "--data-dir", dataDir.toString(),
                "-c", configFile.toString()));
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!LoggedProcess.accepts(brokerPort) || !LoggedProcess.accepts(nameServerPort)) {
            process.checkAlive("the Ramjet server");
            if (System.nanoTime() > deadline) {
                throw new IOException("the Ramjet server did not listen within " + READY_TIMEOUT + ":\n"
                        + process.tail(40));
            }
            LockSupport.parkNanos(50_000_000L);
        }
    }

    /** {@code kill -9}: nothing flushed, nothing unregistered. */
    void kill() throws InterruptedException {
        process.end(true, 0);
    }

    String logTail() {
        return process.tail(40);
    }

    @Override
    public void close() throws InterruptedException {
        process.end(false, 5);
    }
}
