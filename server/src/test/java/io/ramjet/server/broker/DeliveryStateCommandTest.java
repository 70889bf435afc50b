package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.stats.ConsumerDeliveryState;
import io.ramjet.model.stats.QueueDeliveryState;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.model.stats.DestinationDeliveryState;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.security.PasswordHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ADMIN_DELIVERY_STATE over real sockets: how a queue's deliveries stand (its ConsumeQueue's end,
 * the cursor, each consumer's messages in flight and held pulls, the CommitLog's positions), for
 * a user with the admin right only; a consumer of the queue and an anonymous connection are
 * refused NOT_AUTHORIZED, a request naming no destination BAD_REQUEST, and the broker serves on.
 */
class DeliveryStateCommandTest {

    private static final String PASSWORD = "secret-password";
    private static final SubscriptionRef ORDERS = SubscriptionRef.queue("orders.a");
    private static final long CONSUMER = 7;

    @TempDir
    static Path dir;

    private static Broker broker;
    private static final List<BrokerTestClient> clients = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"),
                "consumer = " + hash + "\nadmin = " + hash + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "readers = consumer\nadmins = admin\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"), String.join("\n",
                "consume orders.# = readers, guests",
                "send # = admins",
                "admin # = admins",
                ""));
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dir.resolve("data"))
                .withDestinations(List.of("orders.a", "orders.b"), List.of())
                .withSecurity(users, true)
                .withAccess(new AccessConfig(roles, permissions, null, AccessConfig.DEFAULT_JAAS_ENTRY,
                        Set.of("guests"))));
    }

    @AfterAll
    static void stop() {
        clients.forEach(BrokerTestClient::close);
        broker.close();
    }

    private static BrokerTestClient as(String user) throws Exception {
        BrokerTestClient client = BrokerTestClient.loggedIn(broker.address(), user, PASSWORD);
        clients.add(client);
        return client;
    }

    private static DestinationDeliveryState stateOf(BrokerTestClient client, String destination) throws Exception {
        return client.invoke(CommandCode.ADMIN_DELIVERY_STATE, new AdminQuery(destination))
                .header(DestinationDeliveryState.class);
    }

    private static QueueDeliveryState queue0(DestinationDeliveryState state) {
        return state.queues().stream().filter(q -> q.queueId() == 0).findFirst().orElseThrow();
    }

    @Test
    void anAdminSeesWhatEachConsumerHoldsAndWaitsFor() throws Exception {
        BrokerTestClient admin = as("admin");
        for (int i = 0; i < 3; i++) {
            admin.send("orders.a", DestinationKind.QUEUE, 0, "m" + i);
        }
        BrokerTestClient consumer = as("consumer");
        consumer.subscribe(ORDERS, CONSUMER);
        List<BrokerTestClient.Received> first = consumer.pull(ORDERS, CONSUMER, 3, 2_000);
        assertEquals(3, first.size());
        CompletableFuture<List<BrokerTestClient.Received>> held = consumer.pullAsync(ORDERS, CONSUMER, 5, 10_000);

        await().untilAsserted(() -> assertEquals(1, queue0(stateOf(admin, "orders.a")).consumers().get(0).heldPulls()));
        DestinationDeliveryState state = stateOf(admin, "orders.a");
        QueueDeliveryState q = queue0(state);
        assertEquals("orders.a", q.destination());
        assertEquals("QUEUE", q.subscription());
        assertEquals(List.of(3L, 0L, 3L, 3L, 3L, -1L),
                List.of(q.maxOffset(), q.lowWater(), q.readOffset(), q.pending(), q.inFlight(), q.firstVisible()),
                "end, low water, read offset, pending, in flight, first visible");
        assertEquals(List.of(CONSUMER), q.consumers().stream().map(ConsumerDeliveryState::consumer).toList());
        ConsumerDeliveryState c = q.consumers().get(0);
        assertEquals(List.of(3, 0L, 2L, 1), List.of(c.inFlight(), c.firstInFlight(), c.lastInFlight(), c.heldPulls()),
                "in flight, first and last of them, held pulls");
        assertEquals(3, c.scanFloor(), "nothing visible below the read offset");
        assertTrue(state.writtenOffset() > 0 && state.dispatchedOffset() == state.writtenOffset()
                && state.flushedOffset() == state.writtenOffset(), "every record written is forced and dispatched");

        admin.send("orders.a", DestinationKind.QUEUE, 0, "m3");
        assertEquals(1, held.get().size(), "the held pull took the new message");
        q = queue0(stateOf(admin, "orders.a"));
        c = q.consumers().get(0);
        assertEquals(List.of(4, 0L, 3L, 0), List.of(c.inFlight(), c.firstInFlight(), c.lastInFlight(), c.heldPulls()));

        consumer.release(ORDERS, CONSUMER, first.get(1), false);
        q = queue0(stateOf(admin, "orders.a"));
        assertEquals(List.of(4L, 3L, 1L), List.of(q.pending(), q.inFlight(), q.firstVisible()),
                "a message given back is visible again");
        assertEquals(3, q.consumers().get(0).inFlight());
    }

    @Test
    void aConsumerAndAnAnonymousConnectionAreRefusedAndServedOn() throws Exception {
        BrokerTestClient consumer = as("consumer");
        BrokerTestClient anonymous = as(null);
        for (BrokerTestClient refused : List.of(consumer, anonymous)) {
            RemotingCommandException e = assertThrows(RemotingCommandException.class,
                    () -> stateOf(refused, "orders.b"));
            assertEquals(ErrorStatus.NOT_AUTHORIZED, e.status(), e.getMessage());
        }
        consumer.subscribe(SubscriptionRef.queue("orders.b"), 8);
        assertFalse(stateOf(as("admin"), "orders.b").queues().isEmpty(), "the connections and the broker serve on");
    }

    @Test
    void aRequestNamingNoDestinationIsABadRequest() throws Exception {
        BrokerTestClient admin = as("admin");
        RemotingCommandException e = assertThrows(RemotingCommandException.class, () -> stateOf(admin, ""));
        assertEquals(ErrorStatus.BAD_REQUEST, e.status(), e.getMessage());
        assertEquals(List.of(), stateOf(admin, "no-such-queue").queues());
    }
}
