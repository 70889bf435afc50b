package io.ramjet.server.broker.transaction;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.storage.StoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;

/** Brokers for the transaction tests: ephemeral port, no NameServer, small files, quick check-back. */
final class TxBrokers {

    static final Duration CHECK_AFTER = Duration.ofMillis(300);
    static final Duration CHECK_INTERVAL = Duration.ofMillis(100);

    private TxBrokers() {
    }

    /** The secret participants prove to the coordinators they ask. */
    static final ClusterSecret CLUSTER_SECRET = ClusterSecret.of("the transaction tests' cluster secret");

    static BrokerConfig config(Path dataDir, int maxChecks) {
        return BrokerConfig.defaults(dataDir).withPort(0).withNameServers(List.of()).withQueuesPerDestination(2)
                .withTransactionChecks(CHECK_AFTER, CHECK_INTERVAL, maxChecks).toBuilder()
                .clusterSecret(CLUSTER_SECRET).build();
    }

    static Broker start(Path dataDir) throws Exception {
        return start(config(dataDir, 15));
    }

    static Broker start(BrokerConfig config) throws Exception {
        return start(config, StoreConfig.DEFAULT_MAX_RECORD_SIZE);
    }

    static Broker start(BrokerConfig config, int maxRecordSize) throws Exception {
        Broker broker = new Broker(config, StoreConfig.defaults(config.dataDir()).withSegmentSize(4 << 20)
                .withMinFreeSpace(0).withCheckpointInterval(Duration.ofMillis(200)).withMaxRecordSize(maxRecordSize));
        broker.start();
        return broker;
    }

    /** Polls {@code condition} until it holds or ten seconds pass. */
    static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20)).until(condition);
    }
}
