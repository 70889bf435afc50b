package io.ramjet.server.namesrv;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.AnnounceDestinationsRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.Permission;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.remoting.BrokerProofs;
import io.ramjet.server.remoting.BrokerRegistrar;
import io.ramjet.server.remoting.NameServerRegistrations;
import io.ramjet.server.config.NameServerSecret;
import io.ramjet.server.config.RemotingServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class NameServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final BrokerInfo BROKER_A = new BrokerInfo("cluster", "broker-a", 0, "127.0.0.1:10911");
    private static final BrokerInfo BROKER_B = new BrokerInfo("cluster", "broker-b", 0, "127.0.0.1:10912");
    /** Broker A's name announcing another address: where a hijacker would send producers. */
    private static final BrokerInfo ROGUE_A = new BrokerInfo("cluster", "broker-a", 0, "10.6.6.6:10911");
    private static final NameServerSecret SECRET = NameServerSecret.of("the-cluster-secret-0123456789");
    private static final NameServerSecret WRONG_SECRET = NameServerSecret.of("a-guessed-secret-9876543210");

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

    private NameServer securedNameServer() throws Exception {
        NameServer server = closeLater(new NameServer(NameServerConfig.defaults()
                .withRemoting(RemotingServerConfig.onPort(0)).withSecret(SECRET)));
        server.start();
        return server;
    }

    /** The status a refused request was answered with. */
    private static int refusal(CompletableFuture<?> request) throws Exception {
        try {
            request.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RemotingCommandException refused) {
                return refused.status();
            }
            throw e;
        }
        return fail("the request was accepted");
    }

    /** A client of its own, as a broker process or a JMS client would have. */
    private NameServerClient clientOf(NameServer... servers) {
        RemotingClient remoting = closeLater(new RemotingClient(RemotingClientConfig.defaults()));
        return clientOf(remoting, servers);
    }

    private static NameServerClient clientOf(RemotingClient remoting, NameServer... servers) {
        return new NameServerClient(remoting, addresses(servers), TIMEOUT);
    }

    /** Registrations through a client of its own, as a broker process has. */
    private NameServerRegistrations registrationsOf(NameServer... servers) {
        RemotingClient remoting = closeLater(new RemotingClient(RemotingClientConfig.defaults()));
        return registrationsOf(remoting, servers);
    }

    private static NameServerRegistrations registrationsOf(RemotingClient remoting, NameServer... servers) {
        return new NameServerRegistrations(remoting, addresses(servers), TIMEOUT);
    }

    private static List<String> addresses(NameServer... servers) {
        List<String> addresses = new ArrayList<>();
        for (NameServer server : servers) {
            addresses.add(server.address());
        }
        return addresses;
    }

    private static RegisterBrokerRequest registration(BrokerInfo broker, String... queues) {
        return registration(broker, 1, queues);
    }

    private static RegisterBrokerRequest registration(BrokerInfo broker, int epoch, String... queues) {
        List<DestinationInfo> destinations = new ArrayList<>();
        for (String queue : queues) {
            destinations.add(new DestinationInfo(queue, DestinationKind.QUEUE, 4, Permission.READ_WRITE));
        }
        return new RegisterBrokerRequest(broker, destinations, epoch);
    }

    private static RouteData route(NameServerClient client, String destination) throws Exception {
        return client.queryRoute(destination).get(5, TimeUnit.SECONDS);
    }

    private static List<BrokerInfo> brokersOf(RouteData route) {
        return route.brokers().stream().map(BrokerRoute::broker).toList();
    }

    /** Waits for a condition the NameServer reaches on its own (expiry, a close seen on its side). */
    private static void eventually(String what, BooleanSupplier condition) {
        await(what).atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(condition::getAsBoolean);
    }

    private static boolean routeIsEmpty(NameServerClient client, String destination) {
        return client.queryRoute(destination).join().isEmpty();
    }

    @Test
    void registeredBrokerAppearsInTheRouteOfItsDestinations() throws Exception {
        NameServer nameServer = nameServer();
        NameServerRegistrations broker = registrationsOf(nameServer);
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
    void promotedMasterOfAHigherEpochTakesTheRouteFromALiveOldMasterWhichIsThenRefused() throws Exception {
        NameServer nameServer = nameServer();
        NameServerRegistrations oldMaster = registrationsOf(nameServer);
        NameServerRegistrations newMaster = registrationsOf(nameServer);
        BrokerInfo promoted = new BrokerInfo("cluster", "broker-a", 0, "127.0.0.1:10913");
        oldMaster.registerBroker(registration(BROKER_A, 3, "orders")).get(5, TimeUnit.SECONDS);

        newMaster.registerBroker(registration(promoted, 4, "orders")).get(5, TimeUnit.SECONDS);

        NameServerClient jmsClient = clientOf(nameServer);
        assertEquals(List.of(promoted), brokersOf(route(jmsClient, "orders")));
        assertEquals(ErrorStatus.BROKER_NAME_TAKEN, refusal(oldMaster.registerBroker(registration(BROKER_A, 3, "orders"))));
        assertEquals(List.of(promoted), brokersOf(route(jmsClient, "orders")));
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
        registrationsOf(nameServer).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        registrationsOf(nameServer).registerBroker(registration(BROKER_B, "orders", "audit")).get(5, TimeUnit.SECONDS);

        NameServerClient jmsClient = clientOf(nameServer);

        assertEquals(List.of(BROKER_A, BROKER_B), brokersOf(route(jmsClient, "orders")));
        assertEquals(List.of(BROKER_B), brokersOf(route(jmsClient, "audit")));
    }

    @Test
    void unregisteredBrokerDisappears() throws Exception {
        NameServer nameServer = nameServer();
        NameServerRegistrations broker = registrationsOf(nameServer);
        broker.registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);

        broker.unregisterBroker(UnregisterBrokerRequest.of(BROKER_A)).get(5, TimeUnit.SECONDS);

        assertTrue(route(clientOf(nameServer), "orders").isEmpty());
    }

    @Test
    void brokerThatMissesItsHeartbeatsDisappearsAfterTheExpiry() throws Exception {
        NameServer nameServer = nameServer(Duration.ofMillis(300));
        NameServerRegistrations broker = registrationsOf(nameServer);
        broker.registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        NameServerClient jmsClient = clientOf(nameServer);
        assertFalse(route(jmsClient, "orders").isEmpty());

        // the broker's connection stays open (it heartbeats at the remoting level) but it does not re-register
        eventually("expiry of the broker", () -> routeIsEmpty(jmsClient, "orders"));
    }

    @Test
    void periodicReRegistrationKeepsTheBrokerPastTheExpiry() throws Exception {
        NameServer nameServer = nameServer(Duration.ofMillis(300));
        NameServerRegistrations broker = registrationsOf(nameServer);
        NameServerClient jmsClient = clientOf(nameServer);
        BrokerRegistrar registrar = new BrokerRegistrar(broker, () -> registration(BROKER_A, "orders"),
                Duration.ofMillis(50));

        registrar.start().get(5, TimeUnit.SECONDS);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "orders"))));

        registrar.close();
        assertTrue(route(jmsClient, "orders").isEmpty(), "closing the registrar unregisters");
    }

    @Test
    void closedBrokerConnectionDropsTheBrokerAtOnce() throws Exception {
        NameServer nameServer = nameServer(Duration.ofMinutes(10));
        RemotingClient brokerRemoting = new RemotingClient(RemotingClientConfig.defaults());
        registrationsOf(brokerRemoting, nameServer).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        NameServerClient jmsClient = clientOf(nameServer);
        assertFalse(route(jmsClient, "orders").isEmpty());

        brokerRemoting.close();

        eventually("drop on channel close", () -> routeIsEmpty(jmsClient, "orders"));
    }

    @Test
    void twoNameServersAreIndependentAndBothHoldTheRouteOfABrokerRegisteredWithBoth() throws Exception {
        NameServer first = nameServer();
        NameServer second = nameServer();

        registrationsOf(first, second).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
        registrationsOf(first).registerBroker(registration(BROKER_B, "orders")).get(5, TimeUnit.SECONDS);

        assertEquals(List.of(BROKER_A, BROKER_B), brokersOf(route(clientOf(first), "orders")));
        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(second), "orders")));
    }

    @Test
    void stoppingOneNameServerLeavesTheOtherAnswering() throws Exception {
        NameServer first = nameServer();
        NameServer second = nameServer();
        registrationsOf(first, second).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);
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
        NameServerRegistrations broker = registrationsOf(first, second);
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

    @Test
    void registrationOfALiveBrokersNameFromAnotherConnectionIsRefusedAndTheRouteSurvives() throws Exception {
        NameServer nameServer = nameServer();
        registrationsOf(nameServer).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);

        int status = refusal(registrationsOf(nameServer).registerBroker(registration(ROGUE_A, "orders")));

        assertEquals(ErrorStatus.BROKER_NAME_TAKEN, status);
        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(nameServer), "orders")));
    }

    @Test
    void unregistrationByAStrangerConnectionIsRefusedAndTheRouteSurvives() throws Exception {
        NameServer nameServer = nameServer();
        registrationsOf(nameServer).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);

        int status = refusal(registrationsOf(nameServer).unregisterBroker(UnregisterBrokerRequest.of(BROKER_A)));

        assertEquals(ErrorStatus.BROKER_NAME_TAKEN, status);
        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(nameServer), "orders")));
    }

    @Test
    void securedNameServerRefusesAnUnsignedRegistration() throws Exception {
        NameServer nameServer = securedNameServer();

        int status = refusal(registrationsOf(nameServer).registerBroker(registration(BROKER_A, "orders")));

        assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED, status);
        assertTrue(route(clientOf(nameServer), "orders").isEmpty());
    }

    @Test
    void securedNameServerRefusesARogueRegistrationWithoutOrWithAWrongSecretAndTheRouteSurvives() throws Exception {
        NameServer nameServer = securedNameServer();
        NameServerRegistrations realBroker = registrationsOf(nameServer);
        realBroker.registerBroker(BrokerProofs.sign(SECRET, registration(BROKER_A, "orders"), now())).get(5, TimeUnit.SECONDS);

        NameServerRegistrations rogue = registrationsOf(nameServer);
        assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED, refusal(rogue.registerBroker(registration(ROGUE_A, "orders"))));
        assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED,
                refusal(rogue.registerBroker(BrokerProofs.sign(WRONG_SECRET, registration(ROGUE_A, "orders"), now()))));

        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(nameServer), "orders")));
    }

    @Test
    void securedNameServerRefusesAnUnregistrationWithoutTheSecretAndTheRouteSurvives() throws Exception {
        NameServer nameServer = securedNameServer();
        registrationsOf(nameServer).registerBroker(BrokerProofs.sign(SECRET, registration(BROKER_A, "orders"), now()))
                .get(5, TimeUnit.SECONDS);

        NameServerRegistrations stranger = registrationsOf(nameServer);
        assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED,
                refusal(stranger.unregisterBroker(UnregisterBrokerRequest.of(BROKER_A))));
        assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED,
                refusal(stranger.unregisterBroker(BrokerProofs.sign(WRONG_SECRET, UnregisterBrokerRequest.of(BROKER_A), now()))));

        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(nameServer), "orders")));
    }

    @Test
    void signedRequestReplayedOrOutsideTheTimeWindowIsRefused() throws Exception {
        NameServer nameServer = securedNameServer();
        NameServerRegistrations broker = registrationsOf(nameServer);
        RegisterBrokerRequest signed = BrokerProofs.sign(SECRET, registration(BROKER_A, "orders"), now());
        broker.registerBroker(signed).get(5, TimeUnit.SECONDS);

        assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED, refusal(broker.registerBroker(signed)));
        long stale = now() - BrokerAuthentication.WINDOW.toMillis() - 1_000;
        assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED,
                refusal(broker.registerBroker(BrokerProofs.sign(SECRET, registration(BROKER_A, "orders"), stale))));
        broker.registerBroker(BrokerProofs.sign(SECRET, registration(BROKER_A, "orders"), now())).get(5, TimeUnit.SECONDS);
    }

    @Test
    void signedHeartbeatsKeepTheBrokerAndItsCloseUnregisters() throws Exception {
        NameServer nameServer = securedNameServer();
        NameServerClient jmsClient = clientOf(nameServer);
        BrokerRegistrar registrar = new BrokerRegistrar(registrationsOf(nameServer), () -> registration(BROKER_A, "orders"),
                Duration.ofMillis(50), SECRET);

        registrar.start().get(5, TimeUnit.SECONDS);
        for (int i = 0; i < 5; i++) {
            registrar.registerNow().get(5, TimeUnit.SECONDS);
            assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "orders")));
        }

        registrar.close();
        assertTrue(route(jmsClient, "orders").isEmpty(), "closing the registrar unregisters");
    }

    @Test
    void changesToldInABurstShareRegistrationsAndTheLastCarriesEveryOne() throws Exception {
        NameServer nameServer = nameServer();
        NameServerClient jmsClient = clientOf(nameServer);
        List<String> queues = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger built = new java.util.concurrent.atomic.AtomicInteger();
        BrokerRegistrar registrar = new BrokerRegistrar(registrationsOf(nameServer), () -> {
            built.incrementAndGet();
            return registration(BROKER_A, queues.toArray(String[]::new));
        }, Duration.ofHours(1));
        registrar.start().get(5, TimeUnit.SECONDS);

        for (int i = 0; i < 200; i++) {
            queues.add("q" + i);
            registrar.registerSoon();
        }
        eventually("the last change registered", () -> !jmsClient.queryRoute("q199").join().isEmpty());
        assertTrue(built.get() < 100, built.get() + " registrations for 200 changes");
        registrar.close();
    }

    @Test
    void announcedChangesMoveTheRoutesAndAStrangerConnectionsAnnouncementIsRefused() throws Exception {
        NameServer nameServer = nameServer();
        NameServerClient jmsClient = clientOf(nameServer);
        List<String> queues = new java.util.concurrent.CopyOnWriteArrayList<>(List.of("orders", "TMP.1.1"));
        BrokerRegistrar registrar = new BrokerRegistrar(registrationsOf(nameServer),
                () -> registration(BROKER_A, queues.toArray(String[]::new)), Duration.ofHours(1));
        registrar.start().get(5, TimeUnit.SECONDS);

        queues.remove("TMP.1.1");
        queues.add("TMP.1.2");
        registrar.registerSoon();
        eventually("the created queue routed", () -> !routeIsEmpty(jmsClient, "TMP.1.2"));
        eventually("the deleted queue unrouted", () -> routeIsEmpty(jmsClient, "TMP.1.1"));
        assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "orders")));

        AnnounceDestinationsRequest hijack = new AnnounceDestinationsRequest(BROKER_A, 1, List.of(),
                List.of(new DestinationInfo("orders", DestinationKind.QUEUE, 4, Permission.READ_WRITE)));
        assertEquals(ErrorStatus.BROKER_NOT_REGISTERED, refusal(registrationsOf(nameServer).announceDestinations(hijack)));
        assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "orders")));
        registrar.close();
    }

    @Test
    void changeAfterTheNameServerExpiredTheBrokerRegistersItWhole() throws Exception {
        NameServer nameServer = nameServer(Duration.ofMillis(200));
        NameServerClient jmsClient = clientOf(nameServer);
        List<String> queues = new java.util.concurrent.CopyOnWriteArrayList<>(List.of("orders"));
        BrokerRegistrar registrar = new BrokerRegistrar(registrationsOf(nameServer),
                () -> registration(BROKER_A, queues.toArray(String[]::new)), Duration.ofHours(1));
        registrar.start().get(5, TimeUnit.SECONDS);
        eventually("the broker expired", () -> routeIsEmpty(jmsClient, "orders"));

        queues.add("TMP.1.1");
        registrar.registerSoon();

        eventually("the created queue routed", () -> !routeIsEmpty(jmsClient, "TMP.1.1"));
        assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "orders")), "registered whole, with what it held");
        registrar.close();
    }

    @Test
    void restartedBrokerRegistersAgainOnceItsOldConnectionClosed() throws Exception {
        NameServer nameServer = nameServer();
        RemotingClient before = new RemotingClient(RemotingClientConfig.defaults());
        registrationsOf(before, nameServer).registerBroker(registration(BROKER_A, "orders")).get(5, TimeUnit.SECONDS);

        before.close();
        NameServerRegistrations after = registrationsOf(nameServer);
        eventually("re-registration after the restart", () ->
                after.registerBroker(registration(BROKER_A, "orders", "audit")).handle((ok, failed) -> failed == null).join());

        assertEquals(List.of(BROKER_A), brokersOf(route(clientOf(nameServer), "audit")));
    }

    @Test
    void restartedSignedBrokerOnTheSameAddressTakesOverWhileItsOldConnectionLingers() throws Exception {
        NameServer nameServer = securedNameServer();
        registrationsOf(nameServer).registerBroker(BrokerProofs.sign(SECRET, registration(BROKER_A, "orders"), now()))
                .get(5, TimeUnit.SECONDS);

        // the old connection stays open, as a half-open one would after the broker's host lost power
        registrationsOf(nameServer).registerBroker(BrokerProofs.sign(SECRET, registration(BROKER_A, "audit"), now())).get(5, TimeUnit.SECONDS);

        NameServerClient jmsClient = clientOf(nameServer);
        assertEquals(List.of(BROKER_A), brokersOf(route(jmsClient, "audit")));
        assertTrue(route(jmsClient, "orders").isEmpty());
        assertEquals(ErrorStatus.BROKER_NAME_TAKEN,
                refusal(registrationsOf(nameServer).registerBroker(BrokerProofs.sign(SECRET, registration(ROGUE_A, "orders"), now()))));
    }

    private static long now() {
        return System.currentTimeMillis();
    }
}
