package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.BrowseRequest;
import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DeleteDestinationRequest;
import io.ramjet.protocol.command.DeleteSubscriptionRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.DestinationList;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.broker.security.SecurityFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Each operation refused and allowed at the broker by the permissions file, over real sockets:
 * a refusal is NOT_AUTHORIZED, changes nothing, and leaves the connection usable.
 */
class AuthorizationTest {

    private static final String PASSWORD = "secret-password";

    @TempDir
    Path dir;

    private Broker broker;
    private final List<BrokerTestClient> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"),
                "producer = " + hash + "\nconsumer = " + hash + "\nadmin = " + hash + "\nnobody = " + hash + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"),
                "senders = producer, admin\nreaders = consumer, admin\nadmins = admin\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"), String.join("\n",
                "# orders.* for the application, everything for admins",
                "send orders.# = senders",
                "consume orders.# = readers, guests",
                "browse orders.# = readers",
                "createDurableSubscription orders.# = readers",
                "deleteDurableSubscription orders.# = admins",
                "createTemporary # = *",
                "createDestination orders.# = admins",
                "deleteDestination # = admins",
                "send # = admins",
                "admin # = admins",
                ""));
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dir.resolve("data"))
                .withDestinations(List.of("orders.eu", "orders", "ordersx", "billing.eu"), List.of("orders.news"))
                .withSecurity(users, true)
                .withAccess(new AccessConfig(roles, permissions, null, AccessConfig.DEFAULT_JAAS_ENTRY, Set.of("guests"))));
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

    private static void assertNotAuthorized(ThrowingCall call) {
        RemotingCommandException refused = assertThrows(RemotingCommandException.class, call::run);
        assertEquals(ErrorStatus.NOT_AUTHORIZED, refused.status(), refused.getMessage());
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }

    private boolean listed(String name) throws Exception {
        return as("admin").invoke(CommandCode.LIST_DESTINATIONS, null).header(DestinationList.class).destinations()
                .stream().anyMatch(d -> d.name().equals(name));
    }

    private static SubscriptionRef durable(String topic, String clientId, String name) {
        return new SubscriptionRef(topic, SubscriptionType.DURABLE, clientId, name);
    }

    @Test
    void sendIsAllowedToASenderAndRefusedToOthersWhoseConnectionStaysUsable() throws Exception {
        as("producer").send("orders.eu", DestinationKind.QUEUE, 0, "m");
        BrokerTestClient consumer = as("consumer");
        assertNotAuthorized(() -> consumer.send("orders.eu", DestinationKind.QUEUE, 0, "forged"));
        consumer.subscribe(SubscriptionRef.queue("orders.eu"), 1);
        List<BrokerTestClient.Received> got = consumer.pull(SubscriptionRef.queue("orders.eu"), 1, 10, 2000);
        assertEquals(List.of("m"), got.stream().map(BrokerTestClient.Received::body).toList(),
                "the refused message was not stored and the connection still works");
    }

    @Test
    void aChangedPermissionsFileIsInForceWithoutARestart() throws Exception {
        BrokerTestClient consumer = as("consumer");
        assertNotAuthorized(() -> consumer.send("billing.eu", DestinationKind.QUEUE, 0, "refused"));
        Path permissions = dir.resolve("permissions.properties");
        Files.writeString(permissions, Files.readString(permissions) + "send billing.# = readers\n");
        // a coarse file-system clock must not hide the change: move the time on explicitly
        Files.setLastModifiedTime(permissions, FileTime.from(Files.getLastModifiedTime(permissions).toInstant()
                .plusSeconds(5)));
        await("the new rule in force within " + SecurityFiles.PERMISSIONS_LOOK_EVERY + " of the change")
                .atMost(SecurityFiles.PERMISSIONS_LOOK_EVERY.multipliedBy(10)).pollInterval(Duration.ofMillis(1))
                .until(() -> {
                    try {
                        consumer.send("billing.eu", DestinationKind.QUEUE, 0, "allowed now");
                        return true;
                    } catch (RemotingCommandException refused) {
                        assertEquals(ErrorStatus.NOT_AUTHORIZED, refused.status());
                        return false;
                    }
                });
        assertNotAuthorized(() -> consumer.send("orders.eu", DestinationKind.QUEUE, 0, "still refused"));
    }

    @Test
    void operatorCommandsNeedTheAdminRight() throws Exception {
        as("admin").invoke(CommandCode.ADMIN_BROKER, null);
        BrokerTestClient producer = as("producer");
        assertNotAuthorized(() -> producer.invoke(CommandCode.ADMIN_BROKER, null));
        assertNotAuthorized(() -> producer.invoke(CommandCode.ADMIN_DESTINATIONS, new AdminQuery("")));
        producer.send("orders.eu", DestinationKind.QUEUE, 0, "the refusal left the connection usable");
    }

    @Test
    void anAnonymousConnectionHoldsTheAnonymousRolesOnly() throws Exception {
        BrokerTestClient anonymous = as(null);
        assertNotAuthorized(() -> anonymous.send("orders.eu", DestinationKind.QUEUE, 0, "m"));
        anonymous.subscribe(SubscriptionRef.queue("orders.eu"), 1);
    }

    @Test
    void aPatternCoversItsWordsOnly() throws Exception {
        BrokerTestClient producer = as("producer");
        producer.send("orders.eu", DestinationKind.QUEUE, 0, "one word below");
        producer.send("orders", DestinationKind.QUEUE, 0, "# matches no word too");
        assertNotAuthorized(() -> producer.send("ordersx", DestinationKind.QUEUE, 0, "another name"));
        assertNotAuthorized(() -> producer.send("billing.eu", DestinationKind.QUEUE, 0, "outside"));
    }

    @Test
    void aRefusedSendCreatesNoDestination() throws Exception {
        BrokerTestClient producer = as("producer");
        assertNotAuthorized(() -> producer.send("orders.us", DestinationKind.QUEUE, 0, "creates by use"));
        assertFalse(listed("orders.us"));
        as("admin").send("orders.us", DestinationKind.QUEUE, 0, "an admin may create it");
        producer.send("orders.us", DestinationKind.QUEUE, 0, "then a sender may send");
    }

    @Test
    void consumeIsCheckedWhenTheConsumerAttaches() throws Exception {
        as("consumer").subscribe(SubscriptionRef.queue("orders.eu"), 1);
        BrokerTestClient producer = as("producer");
        assertNotAuthorized(() -> producer.subscribe(SubscriptionRef.queue("orders.eu"), 2));
        assertNotAuthorized(() -> producer.subscribe(SubscriptionRef.topic("orders.news", 3), 3));
    }

    @Test
    void aConsumerCanBePulledOnlyOverItsOwnConnection() throws Exception {
        as("producer").send("orders.eu", DestinationKind.QUEUE, 0, "m");
        as("consumer").subscribe(SubscriptionRef.queue("orders.eu"), 7);
        BrokerTestClient stranger = as("producer");
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> stranger.pullAsync(SubscriptionRef.queue("orders.eu"), 7, 10, 0).get());
        assertEquals(ErrorStatus.UNKNOWN_CONSUMER, ((RemotingCommandException) refused.getCause()).status());
    }

    @Test
    void browseNeedsTheRightToBrowse() throws Exception {
        BrowseRequest page = new BrowseRequest("orders.eu", 0, 0, 10, null);
        as("consumer").invoke(CommandCode.BROWSE, page);
        BrokerTestClient producer = as("producer");
        assertNotAuthorized(() -> producer.invoke(CommandCode.BROWSE, page));
    }

    @Test
    void creatingADurableSubscriptionNeedsTheRight() throws Exception {
        BrokerTestClient consumer = as("consumer");
        consumer.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim("app"));
        consumer.subscribe(durable("orders.news", "app", "sub"), 1);
        BrokerTestClient producer = as("producer");
        producer.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim("other"));
        assertNotAuthorized(() -> producer.subscribe(durable("orders.news", "other", "sub"), 2));
    }

    @Test
    void replacingADurableSubscriptionByOtherTermsNeedsTheRightToDeleteIt() throws Exception {
        BrokerTestClient consumer = as("consumer");
        consumer.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim("app"));
        SubscriptionRef sub = durable("orders.news", "app", "sub");
        consumer.subscribe(sub, 1, "region = 'eu'");
        consumer.closeConsumer(sub, 1);
        assertNotAuthorized(() -> consumer.subscribe(sub, 2, "region = 'us'"));
        consumer.subscribe(sub, 3, "region = 'eu'");
    }

    @Test
    void deletingADurableSubscriptionNeedsTheClientIdAndTheRight() throws Exception {
        BrokerTestClient consumer = as("consumer");
        consumer.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim("app"));
        consumer.subscribe(durable("orders.news", "app", "sub"), 1);
        consumer.closeConsumer(durable("orders.news", "app", "sub"), 1);
        DeleteSubscriptionRequest delete = new DeleteSubscriptionRequest("app", "sub");

        BrokerTestClient admin = as("admin");
        assertNotAuthorized(() -> admin.invoke(CommandCode.DELETE_SUBSCRIPTION, delete));
        assertNotAuthorized(() -> consumer.invoke(CommandCode.DELETE_SUBSCRIPTION, delete));
        consumer.close();
        admin.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim("app"));
        admin.invoke(CommandCode.DELETE_SUBSCRIPTION, delete);
        RemotingCommandException gone = assertThrows(RemotingCommandException.class,
                () -> admin.invoke(CommandCode.DELETE_SUBSCRIPTION, delete));
        assertEquals(ErrorStatus.NOT_FOUND, gone.status(), "deleted by the last call, not by a refused one");
    }

    @Test
    void creatingAndDeletingDestinationsNeedTheirRights() throws Exception {
        BrokerTestClient producer = as("producer");
        CreateDestinationRequest create = new CreateDestinationRequest("orders.asia", DestinationKind.QUEUE, 0);
        assertNotAuthorized(() -> producer.invoke(CommandCode.CREATE_DESTINATION, create));
        BrokerTestClient admin = as("admin");
        admin.invoke(CommandCode.CREATE_DESTINATION, create);
        producer.invoke(CommandCode.CREATE_DESTINATION, create);
        DeleteDestinationRequest delete = new DeleteDestinationRequest("orders.asia", DestinationKind.QUEUE);
        assertNotAuthorized(() -> producer.invoke(CommandCode.DELETE_DESTINATION, delete));
        admin.invoke(CommandCode.DELETE_DESTINATION, delete);
        assertFalse(listed("orders.asia"));
    }

    @Test
    void aTemporaryDestinationIsCreatedByAnyoneAndConsumedAndDeletedByItsConnectionOnly() throws Exception {
        BrokerTestClient owner = as(null);
        String name = owner.invoke(CommandCode.CREATE_DESTINATION, CreateDestinationRequest.temporary(
                DestinationKind.QUEUE)).header(DestinationInfo.class).name();
        BrokerTestClient admin = as("admin");
        RemotingCommandException stolen = assertThrows(RemotingCommandException.class,
                () -> admin.subscribe(SubscriptionRef.queue(name), 1));
        assertEquals(ErrorStatus.SUBSCRIPTION_CONFLICT, stolen.status());
        DeleteDestinationRequest delete = new DeleteDestinationRequest(name, DestinationKind.QUEUE);
        assertNotAuthorized(() -> admin.invoke(CommandCode.DELETE_DESTINATION, delete));
        owner.invoke(CommandCode.DELETE_DESTINATION, delete);
    }

    @Test
    void listingDestinationsIsAdmin() throws Exception {
        as("admin").invoke(CommandCode.LIST_DESTINATIONS, null);
        BrokerTestClient producer = as("producer");
        assertNotAuthorized(() -> producer.invoke(CommandCode.LIST_DESTINATIONS, null));
    }
}
