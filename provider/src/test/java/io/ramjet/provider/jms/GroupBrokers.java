package io.ramjet.provider.jms;

import io.ramjet.server.broker.Broker;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import java.nio.file.Path;
import java.util.List;

/** Brokers of one group {@code g1} on 127.0.0.1 for the failover tests: a master, its slaves, a promoted slave. */
final class GroupBrokers {

    /** The secret the brokers of the group prove to each other. */
    static final ClusterSecret CLUSTER_SECRET = ClusterSecret.of("the provider tests' cluster secret");

    private GroupBrokers() {
    }

    /** Broker {@code brokerId} of {@code g1} on an ephemeral port, registered with {@code nameServer}. */
    static BrokerConfig config(String nameServer, Path dir, long brokerId, ReplicationConfig replication,
                               int queuesPerDestination) {
        BrokerConfigBuilder builder = BrokerConfig.builder(dir).brokerName("g1").brokerId(brokerId).port(0)
                .nameServers(List.of(nameServer)).queuesPerDestination(queuesPerDestination)
                .clusterSecret(CLUSTER_SECRET);
        builder.store().segmentSize(16 << 20);
        return builder.build().withReplication(replication);
    }

    /** Closes the brokers in order, then the NameServer; null ones are skipped. */
    static void closeAll(NameServer nameServer, Broker... brokers) {
        for (Broker broker : brokers) {
            if (broker != null) {
                broker.close();
            }
        }
        if (nameServer != null) {
            nameServer.close();
        }
    }

    static Broker start(BrokerConfig config) throws Exception {
        Broker broker = new Broker(config);
        broker.start();
        return broker;
    }
}
