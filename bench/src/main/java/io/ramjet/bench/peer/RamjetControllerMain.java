package io.ramjet.bench.peer;

import io.ramjet.controller.ControllerConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A NameServer with a node of the controller group in its JVM, as
 * {@code bin/ramjet run namesrv --controller-config FILE} starts it: the node's documented
 * {@code controller.*} keys come as system properties. Prints {@code READY <port>} once the
 * NameServer serves and stops cleanly when stdin closes.
 *
 * <p>Usage: {@code RamjetControllerMain <nameServerPort> <dataDir>}; {@code controller.dataDir}
 * defaults to {@code <dataDir>/controller}.
 */
public final class RamjetControllerMain {

    private RamjetControllerMain() {
    }

    public static void main(String[] args) {
        PeerControl.runOrExit(() -> run(args));
    }

    private static void run(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Properties controller = new Properties();
        controller.putAll(System.getProperties());
        controller.putIfAbsent("controller.dataDir", Path.of(args[1], "controller").toString());
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(port)
                .withController(ControllerConfig.fromProperties(controller)));
        nameServer.start();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        nameServer.close();
    }
}
