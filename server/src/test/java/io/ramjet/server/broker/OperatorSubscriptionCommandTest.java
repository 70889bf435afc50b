package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.AdminSubscriptionRequest;
import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SubscriptionStatsList;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.security.PasswordHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * ADMIN_CREATE_SUBSCRIPTION over real sockets: an operator makes a topic's durable subscription
 * without a consumer, from the first message the topic holds on the broker (what a topic extended
 * onto a group takes there); it survives a restart, and its owner's consumer attaches to it and
 * receives those messages. A consumer and an anonymous connection are refused NOT_AUTHORIZED,
 * a queue's or non-durable subscription and a bad selector BAD_REQUEST, a topic the broker does
 * not hold NOT_FOUND; the broker serves on.
 */
class OperatorSubscriptionCommandTest {

    private static final String PASSWORD = "secret-password";
    private static final SubscriptionRef DURABLE =
            new SubscriptionRef("prices.a", SubscriptionType.DURABLE, "app", "sub");
    private static final String RED = "colour = 'red'";

    @TempDir
    Path dir;

    private Broker broker;
    private final List<BrokerTestClient> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = BrokerTestSupport.start(config());
    }

    private BrokerConfig config() throws Exception {
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"),
                "consumer = " + hash + "\nadmin = " + hash + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "readers = consumer\nadmins = admin\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"), String.join("\n",
                "consume prices.# = readers",
                "createDurableSubscription prices.# = readers",
                "send # = admins",
                "admin # = admins",
                ""));
        return BrokerTestSupport.config(dir.resolve("data"))
                .withDestinations(List.of("orders.a"), List.of("prices.a"))
                .withSecurity(users, true)
                .withAccess(new AccessConfig(roles, permissions, null, AccessConfig.DEFAULT_JAAS_ENTRY, Set.of("guests")));
    }

    @AfterEach
    void stop() {
        clients.forEach(BrokerTestClient::close);
        broker.close();
    }

    private BrokerTestClient as(String user) throws Exception {
        BrokerTestClient client = BrokerTestClient.loggedIn(broker.address(), user, PASSWORD);
        clients.add(client);
        return client;
    }

    private static long create(BrokerTestClient client, SubscriptionRef ref, String selector) throws Exception {
        return client.invoke(CommandCode.ADMIN_CREATE_SUBSCRIPTION, new AdminSubscriptionRequest(ref, selector, false))
                .header(AdminCount.class).count();
    }

    private static int refusal(BrokerTestClient client, SubscriptionRef ref, String selector) {
        return assertThrows(RemotingCommandException.class, () -> create(client, ref, selector)).status();
    }

    @Test
    void theSubscriptionStartsAtTheTopicsFirstMessageHereSurvivesARestartAndItsOwnerReceivesFromIt()
            throws Exception {
        BrokerTestClient admin = as("admin");
        admin.send("prices.a", DestinationKind.TOPIC, 0, "before");
        assertEquals(1, create(admin, DURABLE, null));
        assertEquals(0, create(admin, DURABLE, RED), "an existing subscription is left as it is");
        admin.send("prices.a", DestinationKind.TOPIC, 0, "after");

        clients.forEach(BrokerTestClient::close);
        clients.clear();
        broker.close();
        broker = BrokerTestSupport.start(config());

        assertEquals(List.of("DURABLE app/sub"), as("admin").invoke(CommandCode.ADMIN_SUBSCRIPTIONS,
                new AdminQuery("prices.a")).header(SubscriptionStatsList.class).subscriptions().stream()
                .map(s -> s.kind() + " " + s.clientId() + "/" + s.name()).toList());
        BrokerTestClient owner = as("consumer");
        owner.invoke(CommandCode.CLAIM_CLIENT_ID, new ClaimClientIdRequest("app", false));
        owner.subscribe(DURABLE, 11);
        assertEquals(List.of("before", "after"), owner.pull(DURABLE, 11, 10, 1_000).stream()
                .map(BrokerTestClient.Received::body).toList());
    }

    @Test
    void othersAreRefusedAndTheBrokerServesOn() throws Exception {
        BrokerTestClient admin = as("admin");
        for (BrokerTestClient refused : List.of(as("consumer"), as(null))) {
            assertEquals(ErrorStatus.NOT_AUTHORIZED, refusal(refused, DURABLE, null));
        }
        assertEquals(ErrorStatus.BAD_REQUEST, refusal(admin, SubscriptionRef.queue("orders.a"), null));
        assertEquals(ErrorStatus.BAD_REQUEST,
                refusal(admin, new SubscriptionRef("prices.a", SubscriptionType.SHARED, null, "s"), null));
        assertEquals(ErrorStatus.BAD_REQUEST, refusal(admin, DURABLE, "colour = "));
        assertEquals(ErrorStatus.NOT_FOUND,
                refusal(admin, new SubscriptionRef("prices.none", SubscriptionType.DURABLE, "app", "sub"), null));
        assertEquals(1, create(admin, new SubscriptionRef("prices.a", SubscriptionType.SHARED_DURABLE, null, "s"),
                RED), "the refusals left the connection and the broker serving");
    }
}
