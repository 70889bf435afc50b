package io.ramjet.bench.peer;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.storage.StoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One more broker group of a scaled-out Ramjet peer, in a JVM of its own: a master alone on the
 * given port, named by the system property {@value #BROKER_NAME} and registered with the
 * NameServer {@value #NAME_SERVER} names, with the standalone server's defaults as
 * {@link RamjetServerMain} has them. Prints {@code READY <port>} once it serves and stops
 * cleanly when stdin closes.
 *
 * <p>Usage: {@code RamjetGroupMain <brokerPort> <dataDir> [segmentMiB]}.
 */
public final class RamjetGroupMain {

    /** System property: the group's broker name. */
    public static final String BROKER_NAME = "ramjet.peer.brokerName";
    /** System property: {@code host:port} of the NameServer to register with. */
    public static final String NAME_SERVER = "ramjet.peer.nameServer";

    private RamjetGroupMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        BrokerConfig config = BrokerConfig.builder(data).port(port).brokerName(System.getProperty(BROKER_NAME))
                .nameServers(List.of(System.getProperty(NAME_SERVER))).build();
        StoreConfig store = RamjetServerMain.store(data, args);
        Broker broker = new Broker(config, store);
        broker.start();
        PeerControl.setting("broker-name", config.brokerName());
        PeerControl.setting("segment-size", (store.segmentSize() >> 20) + " MiB");
        PeerControl.noteNetty();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        broker.close();
    }
}
