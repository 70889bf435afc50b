package io.ramjet.bench.peer;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.broker.replication.ReplicationConfig;

/**
 * A Ramjet broker's part in a replicated group of the benchmark (a master and its slaves, roles
 * set by configuration), read from system properties: {@value #MODE} ({@code SYNC} or
 * {@code ASYNC}), {@value #MIN_IN_SYNC}, {@value #BROKER_PORT} (the master's broker port, chosen
 * by the parent so that the slaves can be told it) and, for a slave, {@value #MASTER_ADDRESS} and
 * {@value #BROKER_ID}. A broker without {@value #MODE} is alone, with the broker's defaults.
 */
final class RamjetReplication {

    static final String MODE = "ramjet.peer.replicationMode";
    static final String MIN_IN_SYNC = "ramjet.peer.minInSyncReplicas";
    static final String BROKER_PORT = "ramjet.peer.brokerPort";
    static final String MASTER_ADDRESS = "ramjet.peer.masterAddress";
    static final String BROKER_ID = "ramjet.peer.brokerId";

    /** The cluster secret of the benchmark's brokers and controllers: they run on one machine, for one run. */
    static final String CLUSTER_SECRET = "the benchmark peers' cluster secret";

    private RamjetReplication() {
    }

    /** Sets the master's replication mode and broker port on {@code config} where the properties ask for them. */
    static void master(BrokerConfigBuilder config) {
        String mode = System.getProperty(MODE);
        if (mode != null) {
            config.port(Integer.getInteger(BROKER_PORT, 0)).clusterSecret(ClusterSecret.of(CLUSTER_SECRET))
                    .replicationMode(ReplicationConfig.Mode.valueOf(mode))
                    .minInSyncReplicas(Integer.getInteger(MIN_IN_SYNC, 1));
            PeerControl.note("replication master, " + mode + ", minInSyncReplicas " + Integer.getInteger(MIN_IN_SYNC, 1));
        }
    }

    /** Makes {@code config} a slave of the master the properties name, in their mode. */
    static void slave(BrokerConfigBuilder config) {
        config.role(ReplicationConfig.Role.SLAVE).clusterSecret(ClusterSecret.of(CLUSTER_SECRET))
                .masterAddress(System.getProperty(MASTER_ADDRESS))
                .brokerId(Long.getLong(BROKER_ID))
                .replicationMode(ReplicationConfig.Mode.valueOf(System.getProperty(MODE)))
                .minInSyncReplicas(Integer.getInteger(MIN_IN_SYNC, 1));
    }
}
