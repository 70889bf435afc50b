package io.ramjet.server.broker;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.storage.StoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Broker settings for tests: ephemeral port, no NameServer, small store files, one cluster secret. */
final class BrokerTestSupport {

    /** The cluster secret every test broker holds, so that their slaves may replicate. */
    static final ClusterSecret CLUSTER_SECRET = ClusterSecret.of("the server tests' cluster secret");

    private BrokerTestSupport() {
    }

    static BrokerConfig config(Path dataDir) {
        return BrokerConfig.defaults(dataDir).withPort(0).withNameServers(List.of()).withQueuesPerDestination(2)
                .toBuilder().clusterSecret(CLUSTER_SECRET).build();
    }

    static StoreConfig store(Path dataDir) {
        return StoreConfig.defaults(dataDir).withSegmentSize(4 << 20).withMinFreeSpace(0)
                .withCheckpointInterval(Duration.ofMillis(200));
    }

    static Broker start(BrokerConfig config) throws Exception {
        Broker broker = new Broker(config, store(config.dataDir()));
        broker.start();
        return broker;
    }
}
