package io.ramjet.server.broker;

import io.ramjet.controller.ReplicaInfo;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A broker behind a port forward or proxy ({@code advertisedPort}) announces the port in front of
 * it, not the one it binds: to the NameServers, which give it to clients, and to the controllers,
 * which give it to the slaves as their master's address.
 */
class AdvertisedAddressTest {

    @TempDir
    Path dir;

    @Test
    void theNameServersRouteClientsToTheAdvertisedPort() throws Exception {
        int advertised = ControllerCluster.freePort();
        try (NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
             RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults())) {
            nameServer.start();
            NameServerClient routes = new NameServerClient(remoting, List.of(nameServer.address()),
                    Duration.ofSeconds(3));
            Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dir).toBuilder()
                    .nameServers(List.of(nameServer.address())).advertisedPort(advertised).build());
            try (BrokerTestClient client = new BrokerTestClient("127.0.0.1:" + broker.port())) {
                client.send("forwarded", DestinationKind.QUEUE, 0, "x");
                AtomicReference<RouteData> route = new AtomicReference<>();
                ControllerCluster.await(() -> {
                    route.set(routes.queryRoute("forwarded").join());
                    return !route.get().isEmpty();
                }, Duration.ofSeconds(10), () -> "no route for the queue");
                assertNotEquals(advertised, broker.port());
                assertEquals("127.0.0.1:" + advertised, route.get().brokers().get(0).broker().address());
                assertEquals("127.0.0.1:" + advertised, broker.address());
            } finally {
                broker.close();
            }
        }
    }

    @Test
    void theControllersNameTheAdvertisedAddressAsTheMasters() throws Exception {
        int advertised = ControllerCluster.freePort();
        try (ControllerCluster cluster = new ControllerCluster(dir, 1)) {
            ControlledBroker master = cluster.start(cluster.brokerConfig(1, ReplicationConfig.Mode.ASYNC, 1)
                    .toBuilder().advertisedPort(advertised).build());
            ReplicaInfo info = cluster.client().replicaInfo("g1").info();
            assertEquals(1, info.masterId());
            assertEquals("127.0.0.1:" + advertised, info.masterAddress());
            assertEquals("127.0.0.1:" + advertised, master.address());
        }
    }
}
