package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrokerRegistrationTest {

    @TempDir
    Path dataDir;

    @Test
    void autoCreatedDestinationAppearsInTheRouteAndLeavesWithTheBroker() throws Exception {
        try (NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
             RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults())) {
            nameServer.start();
            NameServerClient routes = new NameServerClient(remoting, List.of(nameServer.address()),
                    Duration.ofSeconds(3));
            Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir)
                    .withNameServers(List.of(nameServer.address())));
            try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
                client.send("routed", DestinationKind.QUEUE, 0, "x");
                RouteData route = eventually(() -> routes.queryRoute("routed").join(), r -> !r.isEmpty());
                assertEquals(broker.address(), route.brokers().get(0).broker().address());
                assertEquals(2, route.brokers().get(0).queueCount());
            } finally {
                broker.close();
            }
            assertTrue(routes.queryRoute("routed").join().isEmpty(), "a broker that stopped unregistered");
        }
    }

    private static <T> T eventually(java.util.function.Supplier<T> probe, java.util.function.Predicate<T> done) {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(probe::get, done);
    }
}
