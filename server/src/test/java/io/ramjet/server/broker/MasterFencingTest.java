package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.ha.BrokerRole;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fencing: a master in controller mode that no longer hears the controllers refuses
 * writes as NOT_MASTER once its lease (the controllers' broker timeout from its last answered
 * heartbeat) has run out, since the controllers may meanwhile have elected another master.
 */
class MasterFencingTest {

    @TempDir
    Path dir;

    @Test
    void aMasterCutOffFromTheControllersRefusesSendsWithinTheBrokerTimeout() throws Exception {
        try (ControllerCluster cluster = new ControllerCluster(dir, 1)) {
            ControlledBroker master = cluster.start(cluster.brokerConfig(1, ReplicationConfig.Mode.ASYNC, 1));
            assertEquals(BrokerRole.master(1), master.role());
            ControllerCluster.await(master::leaseHeld, ControllerCluster.BROKER_TIMEOUT.multipliedBy(5),
                    () -> "no heartbeat of the master answered");
            try (BrokerTestClient client = new BrokerTestClient(master.address())) {
                client.send("orders", DestinationKind.QUEUE, 0, "while the controllers answer");

                long cutAt = System.nanoTime();
                cluster.closeControllers();
                ControllerCluster.await(() -> !master.leaseHeld(), ControllerCluster.BROKER_TIMEOUT.multipliedBy(3),
                        () -> "the master still holds its lease");
                long fencedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                System.out.printf("controller mode: a master cut off from the controllers refuses writes after %d ms"
                        + " (broker timeout %d ms)%n", fencedMillis, ControllerCluster.BROKER_TIMEOUT.toMillis());
                assertTrue(fencedMillis <= ControllerCluster.BROKER_TIMEOUT.toMillis() + 1_000,
                        "fenced only " + fencedMillis + " ms after the last heartbeat it could have had answered");
                RemotingCommandException refused = assertThrows(RemotingCommandException.class,
                        () -> client.send("orders", DestinationKind.QUEUE, 0, "after the cut"));
                assertEquals(ErrorStatus.NOT_MASTER, refused.status());
            }
        }
    }
}
