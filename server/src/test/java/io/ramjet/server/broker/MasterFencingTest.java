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
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * A slave the controllers elect holds the lease the electing answer gave from the moment its
     * new broker listens: a client that reaches it at once (a producer retrying its send) is
     * served, not told that the broker has not heard the controllers, even while the new master
     * is still registering with a NameServer that answers slowly (a loaded machine).
     */
    @Test
    void aNewMasterServesItsFirstRequestsWithTheLeaseOfTheAnswerThatElectedIt() throws Exception {
        try (ControllerCluster cluster = new ControllerCluster(dir, 1);
             NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0))) {
            nameServer.start();
            DelayingProxy slowNameServer = new DelayingProxy("127.0.0.1", nameServer.port(), Duration.ofMillis(1_000));
            List<String> nameServers = List.of("127.0.0.1:" + slowNameServer.port());
            ControlledBroker first = cluster.start(cluster.brokerConfig(1, ReplicationConfig.Mode.ASYNC, 1)
                    .withNameServers(nameServers));
            ControlledBroker second = cluster.start(cluster.brokerConfig(2, ReplicationConfig.Mode.ASYNC, 1)
                    .withNameServers(nameServers));
            ControllerCluster.await(() -> cluster.inSync().contains(2L), ControllerCluster.BROKER_TIMEOUT.multipliedBy(5),
                    () -> "the committed in-sync set is " + cluster.inSync());
            List<String> unheard = new ArrayList<>();
            try (BrokerTestClient client = new BrokerTestClient(second.address())) {
                first.close();
                long deadline = System.nanoTime() + ControllerCluster.BROKER_TIMEOUT.multipliedBy(6).toNanos();
                boolean served = false;
                while (!served && System.nanoTime() - deadline < 0) {
                    try {
                        client.send("orders", DestinationKind.QUEUE, 0, "to whoever is master");
                        served = true;
                    } catch (RemotingCommandException refused) {
                        if (unheard.isEmpty() && refused.getMessage().contains("has not heard the controllers")) {
                            unheard.add("while " + second.role() + ": " + refused.getMessage());
                        }
                    } catch (Exception unreachable) {
                        // switching: its port is closed until the new broker listens
                    }
                }
                assertTrue(served, "the elected slave never took a send: it is " + second.role());
            }
            ControllerCluster.awaitRole(second, BrokerRole.master(2), ControllerCluster.BROKER_TIMEOUT.multipliedBy(3));
            assertEquals(List.of(), unheard, "a send refused by the new master for want of a lease");
            slowNameServer.close();
        }
    }
}
