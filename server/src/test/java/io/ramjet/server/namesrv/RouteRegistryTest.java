package io.ramjet.server.namesrv;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.AnnounceDestinationsRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.Permission;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.server.namesrv.RouteRegistry.Outcome;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RouteRegistryTest {

    private static final BrokerInfo MASTER = new BrokerInfo("c", "b1", 0, "127.0.0.1:1");
    private static final BrokerInfo SLAVE = new BrokerInfo("c", "b1", 1, "127.0.0.1:2");
    private static final BrokerInfo OTHER = new BrokerInfo("c", "b2", 0, "127.0.0.1:3");

    private final Set<Object> closed = new HashSet<>();
    private final RouteRegistry registry = new RouteRegistry(connection -> !closed.contains(connection));
    private final Object connection = new Object();

    private static RegisterBrokerRequest registration(BrokerInfo broker, String... queues) {
        return registration(broker, 1, queues);
    }

    private static RegisterBrokerRequest registration(BrokerInfo broker, int epoch, String... queues) {
        return new RegisterBrokerRequest(broker, Arrays.stream(queues)
                .map(q -> new DestinationInfo(q, DestinationKind.QUEUE, 4, Permission.READ_WRITE)).toList(), epoch);
    }

    private static DestinationInfo queue(String name) {
        return new DestinationInfo(name, DestinationKind.QUEUE, 1, Permission.READ_WRITE);
    }

    @Test
    void announcementAddsAndRemovesDestinationsOfTheRegistrationItsConnectionHolds() {
        registry.register(registration(MASTER, 1, "orders", "TMP.1.1"), connection, false, 0);

        assertTrue(registry.announce(new AnnounceDestinationsRequest(MASTER, 1, List.of(queue("TMP.1.2")),
                List.of(queue("TMP.1.1"))), connection));

        assertEquals(1, registry.route("orders", true).brokers().size());
        assertEquals(1, registry.route("TMP.1.2", true).brokers().size());
        assertTrue(registry.route("TMP.1.1", true).isEmpty());
    }

    @Test
    void announcementOverAnotherConnectionOrAtAnotherEpochOrForNoRegistrationChangesNothing() {
        registry.register(registration(MASTER, 1, "orders"), connection, false, 0);
        AnnounceDestinationsRequest removeOrders = new AnnounceDestinationsRequest(MASTER, 1, List.of(),
                List.of(queue("orders")));

        assertFalse(registry.announce(removeOrders, new Object()));
        assertFalse(registry.announce(new AnnounceDestinationsRequest(MASTER, 2, List.of(), List.of(queue("orders"))),
                connection));
        assertFalse(registry.announce(new AnnounceDestinationsRequest(OTHER, 1, List.of(queue("x")), List.of()),
                connection));

        assertEquals(1, registry.route("orders", true).brokers().size());
        assertTrue(registry.route("x", true).isEmpty());
    }

    @Test
    void masterOfAHigherEpochReplacesALiveHolderAndRoutes() {
        BrokerInfo promoted = new BrokerInfo("c", "b1", 0, "127.0.0.1:2");
        registry.register(registration(MASTER, 1, "orders"), connection, false, 0);

        assertEquals(Outcome.PROMOTED, registry.register(registration(promoted, 2, "orders"), new Object(), false, 1));

        assertEquals(List.of(promoted), registry.route("orders", true).brokers().stream().map(r -> r.broker()).toList());
        assertEquals(2, registry.epochOf("c", "b1", 0));
    }

    @Test
    void masterOfALowerEpochIsRefusedEvenOverItsOwnConnection() {
        BrokerInfo promoted = new BrokerInfo("c", "b1", 0, "127.0.0.1:2");
        Object promotedConnection = new Object();
        registry.register(registration(MASTER, 1, "orders"), connection, false, 0);
        registry.register(registration(promoted, 2, "orders"), promotedConnection, false, 1);

        assertEquals(Outcome.STALE_EPOCH, registry.register(registration(MASTER, 1, "orders"), connection, false, 2));
        closed.add(promotedConnection);
        assertEquals(Outcome.STALE_EPOCH, registry.register(registration(MASTER, 1, "orders"), connection, false, 3),
                "an older epoch is refused even once the holder's connection is gone");

        assertEquals(List.of(promoted), registry.route("orders", true).brokers().stream().map(r -> r.broker()).toList());
    }

    @Test
    void ousterConnectionClosingDoesNotDropThePromotedMaster() {
        BrokerInfo promoted = new BrokerInfo("c", "b1", 0, "127.0.0.1:2");
        registry.register(registration(MASTER, 1, "orders"), connection, false, 0);
        registry.register(registration(promoted, 2, "orders"), new Object(), false, 1);

        assertEquals(List.of(), registry.dropConnection(connection));
        assertEquals(1, registry.route("orders", true).brokers().size());
    }

    @Test
    void anotherGroupsEpochDoesNotMatter() {
        registry.register(registration(MASTER, 5, "orders"), connection, false, 0);

        assertEquals(Outcome.ADDED, registry.register(registration(OTHER, 1, "orders"), new Object(), false, 1));
        assertEquals(2, registry.route("orders", true).brokers().size());
    }

    @Test
    void routeListsEveryInstanceHoldingTheDestinationInOrder() {
        registry.register(registration(OTHER, "orders"), connection, false, 0);
        registry.register(registration(SLAVE, "orders"), connection, false, 0);
        registry.register(registration(MASTER, "orders", "audit"), connection, false, 0);

        RouteData route = registry.route("orders", true);

        assertEquals(List.of(MASTER, SLAVE, OTHER), route.brokers().stream().map(BrokerRoute::broker).toList());
        assertEquals(List.of(MASTER, OTHER), route.writableMasters().stream().map(BrokerRoute::broker).toList());
        assertEquals(List.of(MASTER), registry.route("audit", true).brokers().stream().map(BrokerRoute::broker).toList());
    }

    @Test
    void reRegistrationReplacesTheDestinations() {
        assertEquals(Outcome.ADDED, registry.register(registration(MASTER, "orders"), connection, false, 0));
        assertEquals(Outcome.REPLACED, registry.register(registration(MASTER, "invoices"), connection, false, 1));

        assertTrue(registry.route("orders", true).isEmpty());
        assertEquals(1, registry.route("invoices", true).brokers().size());
    }

    @Test
    void brokerNotReRegisteredWithinTheExpiryIsDropped() {
        registry.register(registration(MASTER, "orders"), connection, false, 0);
        registry.register(registration(OTHER, "orders"), connection, false, 90);

        assertEquals(List.of(), registry.expire(100, 100));
        assertEquals(List.of(MASTER), registry.expire(101, 100));
        assertEquals(List.of(OTHER), registry.brokers());
    }

    @Test
    void closedConnectionDropsOnlyTheBrokersRegisteredOverIt() {
        Object other = new Object();
        registry.register(registration(MASTER, "orders"), connection, false, 0);
        registry.register(registration(OTHER, "orders"), other, false, 0);

        assertEquals(List.of(MASTER), registry.dropConnection(connection));
        assertEquals(List.of(OTHER), registry.brokers());
    }

    @Test
    void reRegistrationOverANewConnectionAfterTheOldOneClosedSurvivesTheOldOnesDrop() {
        Object newer = new Object();
        registry.register(registration(MASTER, "orders"), connection, false, 0);
        closed.add(connection);

        assertEquals(Outcome.REPLACED, registry.register(registration(MASTER, "orders"), newer, false, 1));
        assertEquals(List.of(), registry.dropConnection(connection));
        assertEquals(List.of(MASTER), registry.brokers());
    }

    @Test
    void registrationOfANameAnotherLiveConnectionOwnsIsRefused() {
        BrokerInfo rogue = new BrokerInfo("c", "b1", 0, "10.6.6.6:1");
        registry.register(registration(MASTER, "orders"), connection, false, 0);

        assertEquals(Outcome.REFUSED, registry.register(registration(rogue, "orders"), new Object(), false, 1));
        assertEquals(Outcome.REFUSED, registry.register(registration(rogue, "orders"), new Object(), true, 1));
        assertEquals(List.of(MASTER), registry.brokers());
    }

    @Test
    void authenticatedRegistrationFromTheSameAddressTakesOverALiveName() {
        registry.register(registration(MASTER, "orders"), connection, false, 0);

        assertEquals(Outcome.REFUSED, registry.register(registration(MASTER, "orders"), new Object(), false, 1));
        assertEquals(Outcome.REPLACED, registry.register(registration(MASTER, "audit"), new Object(), true, 1));
        assertTrue(registry.route("orders", true).isEmpty());
        assertEquals(List.of(MASTER), registry.brokers());
    }

    @Test
    void unregisterRemovesTheBroker() {
        registry.register(registration(MASTER, "orders"), connection, false, 0);

        assertEquals(Outcome.REMOVED, registry.unregister("c", "b1", 0, connection));
        assertTrue(registry.route("orders", true).isEmpty());
        assertEquals(Outcome.ABSENT, registry.unregister("c", "b1", 0, connection));
    }

    @Test
    void unregisterFromAStrangerConnectionIsRefusedWhileTheOwnerLives() {
        registry.register(registration(MASTER, "orders"), connection, false, 0);

        assertEquals(Outcome.REFUSED, registry.unregister("c", "b1", 0, new Object()));
        assertEquals(List.of(MASTER), registry.brokers());
    }
}
