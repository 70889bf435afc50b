package io.ramjet.bench.peer;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import io.ramjet.storage.StoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Ramjet as a benchmark peer, in a JVM of its own: a NameServer on the given port and a broker
 * on an ephemeral one, with the standalone server's defaults (sync group commit, 1 GiB
 * CommitLog segments) and its data in the given directory. Prints {@code READY <port>} (the
 * NameServer's) once it serves and stops cleanly when stdin closes.
 *
 * <p>Usage: {@code RamjetServerMain <nameServerPort> <dataDir> [segmentMiB]}: a smaller CommitLog
 * segment than the standalone default (each is zero-filled when created, the next ahead of
 * need) makes a short run start faster.
 */
public final class RamjetServerMain {

    private RamjetServerMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(port));
        nameServer.start();
        StoreConfig store = StoreConfig.defaults(data);
        if (args.length > 2) {
            store = store.withSegmentSize(Integer.parseInt(args[2]) << 20);
        }
        Broker broker = new Broker(BrokerConfig.defaults(data).withPort(0).withNameServers(List.of(nameServer.address())),
                store);
        broker.start();
        PeerControl.noteNetty();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        broker.close();
        nameServer.close();
    }
}
