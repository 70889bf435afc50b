package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.ha.BrokerRole;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover with the default controller and broker settings: three in-process controllers and a
 * SYNC group of three brokers on 127.0.0.1. The master's sockets close with it, its slaves lose
 * their replication connections and report it, and the controllers elect a slave as soon as the
 * lost master's lease ends, not after the longer silence that proves a master dead when no slave
 * lost it.
 */
class DefaultFailoverTimeTest {

    /** The lease (2 s), one check, one Raft commit, a heartbeat and a role switch, with room for a loaded machine. */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(7);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aSlaveReplacesALostMasterSoonAfterItsLeaseEnds() throws Exception {
        try (ControllerCluster cluster = new ControllerCluster(dir, 3, true)) {
            ControlledBroker first = cluster.start(cluster.brokerConfig(1, ReplicationConfig.Mode.SYNC, 2));
            ControlledBroker second = cluster.start(cluster.brokerConfig(2, ReplicationConfig.Mode.SYNC, 2));
            ControlledBroker third = cluster.start(cluster.brokerConfig(3, ReplicationConfig.Mode.SYNC, 2));
            ControllerCluster.awaitRole(second, BrokerRole.slaveOf(first.address(), 1), SETTLE);
            ControllerCluster.awaitRole(third, BrokerRole.slaveOf(first.address(), 1), SETTLE);
            ControllerCluster.await(first::leaseHeld, SETTLE, () -> "no heartbeat of the master answered");
            assertEquals(20, ReplicationTest.send(first.address(), "before", 20).size());

            long lostAt = System.nanoTime();
            first.close();
            ControllerCluster.await(() -> servesAsMaster(second) || servesAsMaster(third), SETTLE,
                    () -> "no slave became master: " + second.role() + ", " + third.role());
            Duration took = Duration.ofNanos(System.nanoTime() - lostAt);
            System.out.printf("default settings: master lost → new master serving in %d ms%n", took.toMillis());
            ControlledBroker master = servesAsMaster(second) ? second : third;
            assertEquals(10, ReplicationTest.send(master.address(), "after", 10).size());
            assertTrue(took.compareTo(FAILOVER_BOUND) < 0, "failover took " + took.toMillis() + " ms");
        }
    }

    private static boolean servesAsMaster(ControlledBroker broker) {
        BrokerRole role = broker.role();
        return role != null && role.master() && broker.leaseHeld();
    }
}
