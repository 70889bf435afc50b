package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.protocol.command.SendResponse;
import io.ramjet.server.broker.ha.BrokerRole;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Brokers in controller mode with three in-process controller nodes and three brokers
 * of group g1 on 127.0.0.1: the first registered is master and SYNC sends reach both slaves; the
 * master lost, an in-sync slave becomes master of a newer epoch and the other follows it without
 * reopening (its log a prefix of the new master's) and holds its log; the old
 * master, restarted on its data directory, rejoins as slave and holds the new master's log.
 */
class ControllerModeTest {

    private static final Duration SWITCH = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aLostMasterIsReplacedByAnInSyncSlaveAndRejoinsAsSlaveOfIt() throws Exception {
        try (ControllerCluster cluster = new ControllerCluster(dir, 3)) {
            ControlledBroker first = cluster.start(cluster.brokerConfig(1, ReplicationConfig.Mode.SYNC, 2));
            assertEquals(BrokerRole.master(1), first.role(), "the group's first broker is its master");
            ControlledBroker second = cluster.start(cluster.brokerConfig(2, ReplicationConfig.Mode.SYNC, 2));
            ControlledBroker third = cluster.start(cluster.brokerConfig(3, ReplicationConfig.Mode.SYNC, 2));
            assertEquals(BrokerRole.slaveOf(first.address(), 1), second.role());
            assertEquals(BrokerRole.slaveOf(first.address(), 1), third.role());
            ControllerCluster.await(() -> cluster.inSync().equals(Set.of(1L, 2L, 3L)), SWITCH,
                    () -> "the committed in-sync set is " + cluster.inSync());

            ControllerCluster.await(first::leaseHeld, SWITCH, () -> "no heartbeat of the master answered");
            List<SendResponse> before = ReplicationTest.send(first.address(), "before", 200);
            assertEquals(200, before.size());
            long end = first.broker().store().maxPhysicalOffset();
            assertTrue(second.broker().store().maxPhysicalOffset() >= end, "a SYNC send returned before slave 2 had it");
            assertTrue(third.broker().store().maxPhysicalOffset() >= end, "a SYNC send returned before slave 3 had it");

            BrokerConfig firstConfig = first.config();
            Broker secondBroker = second.broker();
            Broker thirdBroker = third.broker();
            long lostAt = System.nanoTime();
            first.close();
            ControllerCluster.await(() -> isMaster(second) || isMaster(third), SWITCH,
                    () -> "no slave became master: " + second.role() + ", " + third.role());
            long failoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lostAt);
            System.out.printf("controller mode: master lost → new master serving in %d ms (broker timeout %d ms)%n",
                    failoverMillis, ControllerCluster.BROKER_TIMEOUT.toMillis());
            ControlledBroker master = isMaster(second) ? second : third;
            ControlledBroker slave = master == second ? third : second;
            int epoch = master.role().epoch();
            assertTrue(epoch > 1, "the new master's epoch " + epoch + " is past the lost master's");
            assertEquals(epoch, master.broker().epochs().get(master.broker().epochs().size() - 1).epoch(),
                    "the new master's epochs file names its epoch");
            ControllerCluster.awaitRole(slave, BrokerRole.slaveOf(master.address(), epoch), SWITCH);
            assertSame(slave == second ? secondBroker : thirdBroker, slave.broker(),
                    "the other slave, its log a prefix of the new master's, follows it without reopening");

            ControllerCluster.await(master::leaseHeld, SWITCH, () -> "no heartbeat of the new master answered");
            ReplicationTest.send(master.address(), "after", 100);
            ReplicationTest.awaitCaughtUp(slave.broker(), master.broker());
            ReplicationTest.assertSameLog(master.broker().store(), slave.broker().store());
            assertEquals(master.broker().epochs(), slave.broker().epochs(), "the following slave's epoch history");
            ControlledBroker returned = cluster.start(firstConfig);
            assertEquals(BrokerRole.slaveOf(master.address(), epoch), returned.role(),
                    "the old master returns as a slave of the new one");
            ReplicationTest.awaitCaughtUp(returned.broker(), master.broker());
            ReplicationTest.assertSameLog(master.broker().store(), returned.broker().store());
            assertEquals(master.broker().epochs(), returned.broker().epochs(), "epoch histories");
        }
    }

    private static boolean isMaster(ControlledBroker broker) {
        BrokerRole role = broker.role();
        return role != null && role.master();
    }
}
