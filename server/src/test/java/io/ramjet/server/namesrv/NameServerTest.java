package io.ramjet.server.namesrv;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.DestinationKind;
import io.ramjet.protocol.command.Permission;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.protocol.remoting.BrokerRegistrar;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class NameServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final BrokerInfo BROKER_A = new BrokerInfo("cluster", "broker-a", 0, "127.0.0.1:10911");
    private static final BrokerInfo BROKER_B = new BrokerInfo("cluster", "broker-b", 0, "127.0.0.1:10912");

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T resource) {
        resources.add(resource);
        return resource;
    }

    private NameServer nameServer(Duration expiry) throws Exception {
        NameServer server = closeLater(new NameServer(NameServerConfig.defaults()
                .withRemoting(RemotingServerConfig.onPort(0))
                .withExpiry(expiry, Duration.ofMillis(50))));
        server.start();
        return server;
    }

    private NameServer nameServer() throws Exception {
        return nameServer(Duration.ofMinutes(2));
    }

    /** A client of its own, as a broker process or a JMS client would have. */
    private NameServerClient clientOf(NameServer... servers) {
        RemotingClient remoting = closeLater(new RemotingClient(RemotingClientConfig.defaults()));
        return clientOf(remoting, servers);
    }

    private static NameServerClient clientOf(RemotingClient remoting, NameServer... servers) {
        List<String> addresses = new ArrayList<>();
        for (NameServer server : servers) {
            addresses.add(server.address());
        }
        return new NameServerClient(remoting, addresses, TIMEOUT);
    }

    private static RegisterBrokerRequest registration(BrokerInfo broker, String... queues) {
        List<DestinationInfo> destinations = new ArrayList<>();
        for (String queue : queues) {
            destinations.add(new DestinationInfo(queue, DestinationKind.QUEUE, 4, Permission.READ_WRITE));
        }
        return new RegisterBrokerRequest(broker, destinations);
    }

    private static RouteData route(NameServerClient client, String destination) throws Exception {
        return client.queryRoute(destination).get(5, TimeUnit.SECONDS);
    }

    private static List<BrokerInfo> brokersOf(RouteData route) {
        return route.brokers().stream().map(BrokerRoute::broker).toList();
    }

    /** Waits for a condition the NameServer reaches on its own (expiry, a close seen on its side). */
    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(what + " did not happen within 5 s");
            }
            Thread.sleep(10);
        }
    }

    private static boolean routeIsEmpty(NameServerClient client, String destination) {
        return client.queryRoute(destination).join().isEmpty();
    }

    @Test
    void registeredBrokerAppearsInTheRouteOfItsDestinations() throws Exception {
        NameServer nameServer = nameServer();
        NameServerClient broker = clientOf(nameServer);
        NameServerClient jmsClient = clientOf(nameServer);

        broker.registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);

        RouteData route = route(jmsClient, "orders");
        assertEquals(List.of(BROKER_A), brokersOf(route));
        BrokerRoute only = route.brokers().get(0);
        assertEquals(DestinationKind.QUEUE, only.kind());
        assertEquals(4, only.queueCount());
        assertTrue(only.broker().isMaster());
        assertEquals(List.of(BROKER_A), jmsClient.listBrokers().get(5, TimeUnit.SECONDS));
    }

    @Test
    void destinationNoBrokerHoldsHasAnEmptyRoute() throws Exception {
        NameServer nameServer = nameServer();

        RouteData route = route(clientOf(nameServer), "nowhere");

        assertEquals("nowhere", route.destination());
        assertTrue(route.isEmpty());
    }

    @Test
    void destinationSpreadOverTwoBrokersListsBoth() throws Exception {
        NameServer nameServer = nameServer();
        clientOf(nameServer).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        clientOf(nameServer).registerBroker(registration(BROKER_B, "orders", "audit")).get(5, TimeUnit.SECONDS);

        NameServerClient jmsClient = clientOf(nameServer);

        assertEquals(List.of(BROKER_A, BROKER_B), brokersOf(route(jmsClient, "orders")));
        assertEquals(List.of(BROKER_B), brokersOf(route(jmsClient, "audit")));
    }

    @Test
    void unregisteredBrokerDisappears() throws Exception {
        NameServer nameServer = nameServer();
        NameServerClient broker = clientOf(nameServer);
        broker.registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);

        broker.unregisterBroker(UnregisterBrokerRequest.of(BROKER_A)).get(5, TimeUnit.SECONDS);

        assertTrue(route(broker, "orders").isEmpty());
    }

    @Test
    void brokerThatMissesItsHeartbeatsDisappearsAfterTheExpiry() throws Exception {
        NameServer nameServer = nameServer(Duration.ofMillis(300));
        NameServerClient broker = clientOf(nameServer);
        broker.registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        NameServerClient jmsClient = clientOf(nameServer);
        assertFalse(route(jmsClient, "orders").isEmpty());

        // the broker's connection stays open (it heartbeats at the remoting level) but it does not re-register
        eventually("expiry of the broker", () -> routeIsEmpty(jmsClient, "orders"));
    }

    @Test
    void periodicReRegistrationKeepsTheBrokerPastTheExpiry() throws Exception {
        NameServer nameServer = nameServer(Duration.ofMillis(300));
        NameServerClient broker = clientOf(nameServer);
        NameServerClient jmsClient = clientOf(nameServer);
        BrokerRegistrar registrar = new BrokerRegistrar(broker, () -> registration(BROKER_A, "orders"),
                Duration.ofMillis(50));

        registrar.start().get(5, TimeUnit.SECONDS);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1000);
        while (System.nanoTime() < end) {
            assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "orders")));
            Thread.sleep(50);
        }

        registrar.close();
        assertTrue(route(jmsClient, "orders").isEmpty(), "closing the registrar unregisters");
    }

    @Test
    void closedBrokerConnectionDropsTheBrokerAtOnce() throws Exception {
        NameServer nameServer = nameServer(Duration.ofMinutes(10));
        RemotingClient brokerRemoting = new RemotingClient(RemotingClientConfig.defaults());
        clientOf(brokerRemoting, nameServer).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        NameServerClient jmsClient = clientOf(nameServer);
        assertFalse(route(jmsClient, "orders").isEmpty());

        brokerRemoting.close();

        eventually("drop on channel close", () -> routeIsEmpty(jmsClient, "orders"));
    }

    @Test
    void twoNameServersAreIndependentAndBothHoldTheRouteOfABrokerRegisteredWithBoth() throws Exception {
        NameServer first = nameServer();
        NameServer second = nameServer();

        clientOf(first, second).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        clientOf(first).registerBroker(registration(BROKER_B, "orders")).get(5, TimeUnit.SECONDS);

        assertEquals(List.of(BROKER_A, BROKER_B), brokersOf(route(clientOf(first), "orders")));
        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(second), "orders")));
    }

    @Test
    void stoppingOneNameServerLeavesTheOtherAnswering() throws Exception {
        NameServer first = nameServer();
        NameServer second = nameServer();
        clientOf(first, second).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        NameServerClient jmsClient = clientOf(first, second);

        first.close();

        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "orders")), "query " + i);
        }
        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(second), "orders")));
    }

    @Test
    void registrationSucceedsWhileOneNameServerIsDown() throws Exception {
        NameServer first = nameServer();
        NameServer second = nameServer();
        NameServerClient broker = clientOf(first, second);
        second.close();

        broker.registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);

        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(first), "orders")));
    }

    @Test
    void boundToAnEphemeralPort() throws Exception {
        NameServer nameServer = nameServer();

        assertTrue(nameServer.port() > 0);
        assertEquals("127.0.0.1:" + nameServer.port(), nameServer.address());
    }
}
