package io.ramjet.bench.peer;

import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.standalone.BrokerProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A broker of a Ramjet group in controller mode, in a JVM of its own: its role comes
 * from the controller group ({@link ControlledBroker}). It is configured with the documented
 * broker keys (docs/configuration.md), each passed as a system property with the prefix
 * {@value #PREFIX}, as a user's {@code broker.properties} would hold them. Prints
 * {@code READY <port>} once it has registered and opened in the role the controllers gave it, and
 * stops cleanly when stdin closes.
 *
 * <p>Usage: {@code RamjetGroupBrokerMain <brokerPort> <dataDir>}.
 */
public final class RamjetGroupBrokerMain {

    /** The prefix of the system properties that carry broker keys. */
    public static final String PREFIX = "ramjet.broker.";

    private RamjetGroupBrokerMain() {
    }

    public static void main(String[] args) {
        PeerControl.runOrExit(() -> run(args));
    }

    private static void run(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        Properties keys = new Properties();
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith(PREFIX))
                .forEach(k -> keys.setProperty(k.substring(PREFIX.length()), System.getProperty(k)));
        keys.setProperty("port", Integer.toString(port));
        keys.setProperty("dataDir", data.toString());
        ControlledBroker broker = new ControlledBroker(BrokerProperties.parse(keys, data));
        broker.start();
        PeerControl.note("broker " + keys.getProperty("brokerId") + " started as " + broker.role());
        PeerControl.noteNetty();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        broker.close();
    }
}
