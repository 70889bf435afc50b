package io.ramjet.bench.peer;

import java.util.List;
import org.apache.activemq.artemis.core.config.ClusterConnectionConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.config.ha.ReplicaPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicatedPolicyConfiguration;
import org.apache.activemq.artemis.core.server.cluster.impl.MessageLoadBalancingType;

/**
 * An Artemis broker's part in a live/backup pair with the {@code replication} HA policy, set as
 * {@code artemis create --replicated --staticCluster tcp://<partner>} writes it into
 * {@code broker.xml}: a connector to itself and one to its partner, a cluster connection over
 * static connectors (create's UDP discovery cannot run where only 127.0.0.1 may be used), a
 * cluster user, and {@code <replication><primary>} with {@code check-for-active-server} or
 * {@code <replication><backup>} with {@code allow-failback}. The connectors are on epoll
 * (Artemis's default, as create writes them): the one a broker announces is where clients fail
 * over to, and every client runs on Artemis's own Netty ({@link ClientProcess}), where epoll
 * loads. Chosen by the system properties
 * {@value #ROLE} ({@code primary} or {@code backup}) and {@value #PARTNER_PORT}.
 */
final class ArtemisReplication {

    /** System property: {@code primary} or {@code backup}; a broker without it is alone. */
    static final String ROLE = "artemis.peer.replication";
    /** System property: the acceptor port of the other broker of the pair, on 127.0.0.1. */
    static final String PARTNER_PORT = "artemis.peer.partnerPort";

    private static final String SELF = "artemis";
    private static final String PARTNER = "partner";

    private ArtemisReplication() {
    }

    /** The role the system properties give, or null for a broker without HA. */
    static String role() {
        String role = System.getProperty(ROLE);
        if (role != null && !role.equals("primary") && !role.equals("backup")) {
            throw new IllegalArgumentException(ROLE + " must be primary or backup, not " + role);
        }
        return role;
    }

    /** Adds the pair's connectors, cluster connection and HA policy for {@code role} to {@code config}. */
    static void configure(ConfigurationImpl config, String role, int port) throws Exception {
        int partnerPort = Integer.parseInt(System.getProperty(PARTNER_PORT));
        config.addConnectorConfiguration(SELF, "tcp://127.0.0.1:" + port);
        config.addConnectorConfiguration(PARTNER, "tcp://127.0.0.1:" + partnerPort);
        config.addClusterConfiguration(new ClusterConnectionConfiguration()
                .setName("my-cluster")
                .setConnectorName(SELF)
                .setMessageLoadBalancingType(MessageLoadBalancingType.ON_DEMAND)
                .setMaxHops(0)
                .setStaticConnectors(List.of(PARTNER)));
        config.setClusterUser("cluster-admin");
        config.setClusterPassword("password-admin");
        if (role.equals("primary")) {
            config.setHAPolicyConfiguration(new ReplicatedPolicyConfiguration().setCheckForActiveServer(true));
        } else {
            config.setHAPolicyConfiguration(new ReplicaPolicyConfiguration().setAllowFailBack(true));
        }
    }
}
