package io.ramjet.bench.peer;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A slave of a replicated Ramjet peer, in a JVM of its own: a broker alone (a slave registers
 * with no NameServer) on the given port, following the master {@link RamjetReplication}'s system
 * properties name, with the master's CommitLog segment size. Prints {@code READY <port>} once it
 * has joined the master and stops cleanly when stdin closes.
 *
 * <p>Usage: {@code RamjetSlaveMain <brokerPort> <dataDir> [segmentMiB]}.
 */
public final class RamjetSlaveMain {

    private RamjetSlaveMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        BrokerConfigBuilder config = BrokerConfig.builder(data).port(port).nameServers(List.of());
        RamjetReplication.slave(config);
        Broker broker = new Broker(config.build(), RamjetServerMain.store(data, args));
        broker.start();
        PeerControl.noteNetty();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        broker.close();
    }
}
