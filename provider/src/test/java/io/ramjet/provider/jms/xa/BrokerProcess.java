package io.ramjet.provider.jms.xa;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.transaction.ChildBroker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A broker in a child JVM ({@link ChildBroker}) on a data directory, registered with a
 * NameServer of the test: killed with {@code kill -9} ({@link Process#destroyForcibly}) and
 * restarted on the same data and port. Not thread-safe, except that {@link #kill} may be called
 * from the thread of a transaction manager while the test thread waits on it.
 */
final class BrokerProcess implements AutoCloseable {

    private final Path data;
    private final String nameServer;
    private volatile Process process;
    private int port;

    private BrokerProcess(Path data, String nameServer) {
        this.data = data;
        this.nameServer = nameServer;
    }

    /** A broker on {@code data} (any free port), serving once this returns. */
    static BrokerProcess start(Path data, String nameServer) throws Exception {
        BrokerProcess broker = new BrokerProcess(data, nameServer);
        broker.launch(0);
        return broker;
    }

    /** Kills the child with -9 and waits until it is gone. */
    void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        try {
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the broker child did not die");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing the broker child", e);
        }
        process = null;
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Starts the broker again on the same data directory and port. */
    void restart() throws Exception {
        kill();
        launch(port);
    }

    @Override
    public void close() {
        kill();
    }

    private void launch(int onPort) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                ChildBroker.class.getName(), data.toString(), Integer.toString(onPort), nameServer)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        process = p;
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertNotNull(line, "the broker child ended before it served");
        assertTrue(line.startsWith("READY "), line);
        String address = line.substring("READY ".length());
        port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }
}
