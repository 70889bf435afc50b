package io.ramjet.bench.peer;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
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
 * <p>Usage: {@code RamjetServerMain <nameServerPort> <dataDir> [segmentMiB [keyStore trustStore
 * password]]}: a smaller CommitLog segment than the standalone default (each is zero-filled when
 * created, the next ahead of need) makes a short run start faster; 0 keeps the default. With a
 * PKCS#12 key store both ports use TLS, and the broker registers over TLS trusting the trust store.
 * With the system property {@link #METRICS_PORT} the broker serves its Prometheus metrics on that port.
 * The system property {@value #CHECKPOINT_PROPERTY} sets the checkpoint interval in ms (for
 * {@code RecoveryTime}); without it the store's default holds. With {@link RamjetReplication}'s
 * system properties the broker is the master of a replicated group.
 */
public final class RamjetServerMain {

    /** System property: the port of the broker's Prometheus endpoint; metrics are off without it. */
    public static final String METRICS_PORT = "ramjet.peer.metricsPort";
    /** System property: the checkpoint interval in ms. */
    public static final String CHECKPOINT_PROPERTY = "checkpointIntervalMs";

    private RamjetServerMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        BrokerConfigBuilder config = BrokerConfig.builder(data).port(0)
                .metricsPort(Integer.getInteger(METRICS_PORT, -1));
        RamjetReplication.master(config);
        if (args.length > 5) {
            config.tls().keyStore(Path.of(args[3])).keyPassword(args[5]).trustStore(Path.of(args[4]))
                    .trustStorePassword(args[5]).outbound(true);
        }
        NameServerConfig nameServerConfig = NameServerConfig.defaults().withPort(port);
        NameServer nameServer = new NameServer(nameServerConfig.withRemoting(nameServerConfig.remoting()
                .withTls(config.build().tls().server())));
        nameServer.start();
        StoreConfig store = store(data, args);
        Broker broker = new Broker(config.nameServers(List.of(nameServer.address())).build(), store);
        broker.start();
        PeerControl.setting("segment-size", (store.segmentSize() >> 20) + " MiB");
        PeerControl.noteNetty();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        broker.close();
        nameServer.close();
    }

    /** The store's defaults in {@code data}, with the segment size of {@code args[2]} and the checkpoint property. */
    static StoreConfig store(Path data, String[] args) {
        StoreConfig store = StoreConfig.defaults(data);
        if (args.length > 2 && Integer.parseInt(args[2]) > 0) {
            store = store.withSegmentSize(Integer.parseInt(args[2]) << 20);
        }
        Long checkpointMs = Long.getLong(CHECKPOINT_PROPERTY);
        if (checkpointMs != null) {
            store = store.withCheckpointInterval(java.time.Duration.ofMillis(checkpointMs));
        }
        return store;
    }
}
