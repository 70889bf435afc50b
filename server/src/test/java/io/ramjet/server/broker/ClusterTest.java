package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
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
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ClusterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @TempDir
    Path dirA;

    @TempDir
    Path dirB;

    @Test
    void destinationSpreadOverTwoBrokersIsRoutedByBothNameServersAndSurvivesLosingOne() throws Exception {
        try (NameServer ns1 = new NameServer(NameServerConfig.defaults().withPort(0));
             NameServer ns2 = new NameServer(NameServerConfig.defaults().withPort(0));
             RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults())) {
            ns1.start();
            ns2.start();
            List<String> nameServers = List.of(ns1.address(), ns2.address());
            Broker a = BrokerTestSupport.start(BrokerTestSupport.config(dirA).withBrokerName("broker-a")
                    .withNameServers(nameServers));
            Broker b = BrokerTestSupport.start(BrokerTestSupport.config(dirB).withBrokerName("broker-b")
                    .withNameServers(nameServers));
            try (BrokerTestClient toA = new BrokerTestClient(a.address());
                 BrokerTestClient toB = new BrokerTestClient(b.address())) {
                for (BrokerTestClient c : List.of(toA, toB)) {
                    c.invoke(CommandCode.CREATE_DESTINATION, new CreateDestinationRequest("spread", DestinationKind.QUEUE, 2));
                }
                NameServerClient viaFirst = new NameServerClient(remoting, List.of(ns1.address()), TIMEOUT);
                NameServerClient viaSecond = new NameServerClient(remoting, List.of(ns2.address()), TIMEOUT);
                Set<String> both = Set.of(a.address(), b.address());
                assertEquals(both, brokers(eventually(viaFirst, r -> brokers(r).equals(both))));
                assertEquals(both, brokers(eventually(viaSecond, r -> brokers(r).equals(both))));

                ns1.close();
                assertEquals(both, brokers(viaSecond.queryRoute("spread").join()), "the other NameServer still routes");

                a.close();
                Set<String> onlyB = Set.of(b.address());
                assertEquals(onlyB, brokers(eventually(viaSecond, r -> brokers(r).equals(onlyB))));
                assertEquals(0, toB.send("spread", DestinationKind.QUEUE, 1, "still served").queueOffset());
            } finally {
                b.close();
                a.close();
            }
        }
    }

    private static Set<String> brokers(RouteData route) {
        return route.brokers().stream().map(BrokerRoute::broker).map(i -> i.address()).collect(Collectors.toSet());
    }

    private static RouteData eventually(NameServerClient client, Predicate<RouteData> done) {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> client.queryRoute("spread").join(), done);
    }
}
