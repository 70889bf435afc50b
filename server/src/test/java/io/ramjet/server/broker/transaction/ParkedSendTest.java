package io.ramjet.server.broker.transaction;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.ParkedQueryRequest;
import io.ramjet.protocol.command.ParkedQueryResponse;
import io.ramjet.protocol.command.ParkedResolveRequest;
import io.ramjet.protocol.command.ParkedSendList;
import io.ramjet.protocol.command.ParkedSendStats;
import io.ramjet.protocol.command.ParkedSendRequest;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.broker.transaction.TxClient.Received;
import io.ramjet.server.cluster.ClusterIntroduction;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parked sends between two real broker groups registered with one NameServer, over real sockets
 * and files: a send group A's lost master may have stored is kept on group B until A says
 * whether it holds it; B then delivers it (A fenced it) or drops it (A delivers its own), and
 * either way it is delivered once. The parked record and A's fence survive restarts on the same
 * data; only proven cluster members may ask A, and a parked send needs the {@code send} right.
 * For a group gone for good an operator with the {@code admin} right lists the parked sends and
 * decides them.
 */
class ParkedSendTest {

    private static final String QUEUE = "orders";
    private static final long PRODUCER = 0x5eed_0001L;

    @TempDir
    Path dir;

    private NameServer nameServer;
    private final List<Broker> brokers = new ArrayList<>();
    private final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void startNameServer() throws Exception {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : clients) {
            c.close();
        }
        for (Broker b : brokers) {
            b.close();
        }
        nameServer.close();
    }

    private BrokerConfig config(String group) {
        return TxBrokers.config(dir.resolve(group), 15).withBrokerName(group)
                .withNameServers(List.of(nameServer.address())).withDestinations(List.of(QUEUE), List.of());
    }

    private Broker start(BrokerConfig config) throws Exception {
        Broker broker = TxBrokers.start(config);
        brokers.add(broker);
        return broker;
    }

    private Broker restart(Broker broker, BrokerConfig config) throws Exception {
        broker.close();
        brokers.remove(broker);
        return start(config);
    }

    private TxClient reader(Broker broker, long consumer) throws Exception {
        TxClient client = new TxClient(broker.address());
        clients.add(client);
        client.subscribe(QUEUE, consumer);
        return client;
    }

    private Wire wire() {
        Wire wire = new Wire();
        clients.add(wire);
        return wire;
    }

    private static List<String> bodies(List<Received> received) {
        return received.stream().map(Received::body).toList();
    }

    @Test
    void aSendTheOriginDidNotStoreIsDeliveredFromTheGroupThatParkedIt() throws Exception {
        Broker a = start(config("group-a"));
        Broker b = start(config("group-b"));
        Wire wire = wire();
        assertFalse(wire.parkedSend(b, "group-a", PRODUCER, 1, "in doubt").isError());
        TxBrokers.await("the parked send resolved", () -> b.transactionCount() == 0);
        assertEquals(List.of("in doubt"), bodies(reader(b, 1).drain(QUEUE, 1, 200)));
        // the fence: a late resend of it to A is a duplicate, stored nowhere
        assertFalse(wire.send(a, PRODUCER, 1, "in doubt").isError());
        assertEquals(List.of(), bodies(reader(a, 2).drain(QUEUE, 2, 200)));
    }

    @Test
    void aSendTheOriginStoredIsDroppedByTheGroupThatParkedIt() throws Exception {
        Broker a = start(config("group-a"));
        Broker b = start(config("group-b"));
        Wire wire = wire();
        assertFalse(wire.send(a, PRODUCER, 1, "stored at a").isError());
        assertFalse(wire.parkedSend(b, "group-a", PRODUCER, 1, "stored at a").isError());
        TxBrokers.await("the parked send resolved", () -> b.transactionCount() == 0);
        assertEquals(List.of(), bodies(reader(b, 1).drain(QUEUE, 1, 200)));
        assertEquals(List.of("stored at a"), bodies(reader(a, 2).drain(QUEUE, 2, 200)));
    }

    @Test
    void aResentParkedSendIsKeptOnce() throws Exception {
        start(config("group-a"));
        Broker b = start(config("group-b"));
        Wire wire = wire();
        for (int i = 0; i < 3; i++) {
            assertFalse(wire.parkedSend(b, "group-a", PRODUCER, 7, "once").isError());
        }
        TxBrokers.await("the parked send resolved", () -> b.transactionCount() == 0);
        assertEquals(List.of("once"), bodies(reader(b, 1).drain(QUEUE, 1, 200)));
    }

    @Test
    void aParkedSendWaitsForItsOriginAcrossARestartAndIsDeliveredWhenTheOriginComes() throws Exception {
        BrokerConfig bConfig = config("group-b");
        Broker b = start(bConfig);
        assertFalse(wire().parkedSend(b, "group-c", PRODUCER, 3, "waits").isError());
        Duration checks = TxBrokers.CHECK_AFTER.plus(TxBrokers.CHECK_INTERVAL.multipliedBy(5));
        await().during(checks).atMost(checks.plusSeconds(5)).until(() -> b.transactionCount() == 1);
        Broker restarted = restart(b, bConfig);
        assertEquals(1, restarted.transactionCount(), "the parked send is durable");
        assertEquals(List.of(), reader(restarted, 1).pull(QUEUE, 1, 10, 100), "and not delivered while in doubt");
        start(config("group-c"));
        TxBrokers.await("the parked send resolved", () -> restarted.transactionCount() == 0);
        assertEquals(List.of("waits"), bodies(reader(restarted, 2).drain(QUEUE, 2, 200)));
    }

    @Test
    void theOriginsAnswerIsTheSameAfterItRestarts() throws Exception {
        BrokerConfig aConfig = config("group-a");
        Broker a = start(aConfig);
        Wire wire = wire();
        assertFalse(wire.send(a, PRODUCER, 1, "one").isError());
        assertFalse(wire.send(a, PRODUCER, 2, "two").isError());
        assertFalse(wire.query(a, PRODUCER, 5), "5 was never stored: fenced");
        assertFalse(wire.query(a, PRODUCER, 4), "4 is below the fence, above what was stored");
        assertTrue(wire.query(a, PRODUCER, 2));
        a = restart(a, aConfig);
        Wire again = wire();
        assertFalse(again.query(a, PRODUCER, 5));
        assertFalse(again.query(a, PRODUCER, 3));
        assertTrue(again.query(a, PRODUCER, 1));
        assertFalse(again.send(a, PRODUCER, 5, "late resend").isError());
        assertEquals(List.of("one", "two"), bodies(reader(a, 1).drain(QUEUE, 1, 200)));
    }

    @Test
    void onlyAProvenClusterMemberMayAskTheOrigin() throws Exception {
        String password = "secret-password";
        String hash = PasswordHash.of(password.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"), "app = " + hash + "\nbroker = " + hash + "\n");
        Broker a = start(config("group-a").withSecurity(users, true).toBuilder().clusterUser("broker").build());
        Wire anonymous = wire();
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, anonymous.queryError(a, PRODUCER, 1));
        Wire clusterUser = wire();
        clusterUser.login(a, "broker", password);
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, clusterUser.queryError(a, PRODUCER, 1),
                "a login, even the cluster user's, never suffices");
        assertFalse(wire().query(a, PRODUCER, 1), "a proven member is answered");
    }

    @Test
    void aParkedSendNeedsTheSendRight() throws Exception {
        String password = "secret-password";
        String hash = PasswordHash.of(password.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"),
                "producer = " + hash + "\nreader = " + hash + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "senders = producer\nreaders = reader\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"),
                "send orders = senders\nconsume orders = readers\n");
        Broker b = start(config("group-b").withSecurity(users, false).withAccess(
                new AccessConfig(roles, permissions, null, AccessConfig.DEFAULT_JAAS_ENTRY, Set.of())));
        Wire reader = wire();
        reader.login(b, "reader", password);
        assertEquals(ErrorStatus.NOT_AUTHORIZED, assertThrows(RemotingCommandException.class,
                () -> reader.parkedSend(b, "group-a", PRODUCER, 1, "not mine to send")).status());
        assertEquals(0, b.transactionCount());
        Wire producer = wire();
        producer.login(b, "producer", password);
        assertFalse(producer.parkedSend(b, "group-a", PRODUCER, 1, "mine").isError());
        assertEquals(1, b.transactionCount());
    }

    @Test
    void aParkedSendFromTheBrokersOwnGroupIsRefused() throws Exception {
        Broker b = start(config("group-b"));
        Wire wire = wire();
        assertEquals(ErrorStatus.BAD_REQUEST, assertThrows(RemotingCommandException.class,
                () -> wire.parkedSend(b, "group-b", PRODUCER, 1, "loop")).status());
        assertEquals(0, b.transactionCount());
    }

    @Test
    void anOperatorCommitsTheParkedSendsOfAGroupGoneForGoodAndEachIsDeliveredOnce() throws Exception {
        Broker b = start(config("group-b"));
        Broker a = start(config("group-a"));
        a.close();
        brokers.remove(a);
        Wire wire = wire();
        assertFalse(wire.parkedSend(b, "group-a", PRODUCER, 1, "in doubt").isError());
        assertFalse(wire.parkedSend(b, "group-c", PRODUCER, 1, "another origin's").isError());
        Duration checks = TxBrokers.CHECK_AFTER.plus(TxBrokers.CHECK_INTERVAL.multipliedBy(3));
        await().during(checks).atMost(checks.plusSeconds(5)).until(() -> b.transactionCount() == 2);

        List<ParkedSendStats> parked = wire.parked(b);
        assertEquals(List.of("group-a", "group-c"), parked.stream().map(ParkedSendStats::group).sorted().toList());
        ParkedSendStats fromA = parked.stream().filter(p -> p.group().equals("group-a")).findFirst().orElseThrow();
        assertEquals(PRODUCER, fromA.producerId());
        assertEquals(1, fromA.sequence());
        assertEquals(QUEUE, fromA.destination());

        assertEquals(1, wire.resolve(b, "group-a", true));
        assertEquals(0, wire.resolve(b, "group-a", true), "nothing of group-a is left to decide");
        assertEquals(List.of("group-c"), wire.parked(b).stream().map(ParkedSendStats::group).toList());
        assertEquals(List.of("in doubt"), bodies(reader(b, 1).drain(QUEUE, 1, 200)));
    }

    @Test
    void anOperatorDiscardsTheParkedSendsOfAGroupGoneForGood() throws Exception {
        Broker b = start(config("group-b"));
        Broker a = start(config("group-a"));
        Wire wire = wire();
        assertFalse(wire.send(a, PRODUCER, 1, "stored at a").isError());
        a.close();
        brokers.remove(a);
        assertFalse(wire.parkedSend(b, "group-a", PRODUCER, 1, "stored at a").isError());
        assertFalse(wire.parkedSend(b, "group-a", PRODUCER, 2, "maybe at a").isError());

        assertEquals(2, wire.resolve(b, "group-a", false));
        assertEquals(List.of(), wire.parked(b));
        assertEquals(0, b.transactionCount());
        assertEquals(List.of(), bodies(reader(b, 1).drain(QUEUE, 1, 200)));
    }

    @Test
    void onlyAnAdminMayListOrResolveParkedSends() throws Exception {
        String password = "secret-password";
        String hash = PasswordHash.of(password.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"),
                "operator = " + hash + "\nproducer = " + hash + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "admins = operator\nsenders = producer\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"),
                "send orders = senders\nconsume orders = senders\nadmin # = admins\n");
        Broker b = start(config("group-b").withSecurity(users, false).withAccess(
                new AccessConfig(roles, permissions, null, AccessConfig.DEFAULT_JAAS_ENTRY, Set.of())));
        Wire producer = wire();
        producer.login(b, "producer", password);
        assertFalse(producer.parkedSend(b, "group-a", PRODUCER, 1, "in doubt").isError());

        Wire anonymous = wire();
        for (Wire refused : List.of(producer, anonymous)) {
            int status = refused == producer ? ErrorStatus.NOT_AUTHORIZED : ErrorStatus.AUTHENTICATION_FAILED;
            assertEquals(status, assertThrows(RemotingCommandException.class, () -> refused.parked(b)).status());
            assertEquals(status, assertThrows(RemotingCommandException.class,
                    () -> refused.resolve(b, "group-a", true)).status());
        }
        assertEquals(1, b.transactionCount(), "a refused decision decides nothing");
        Wire operator = wire();
        operator.login(b, "operator", password);
        assertEquals(1, operator.parked(b).size());
        assertEquals(1, operator.resolve(b, "group-a", true));
        assertEquals(0, b.transactionCount());
    }

    /** Raw commands over one connection per broker address. */
    private static final class Wire implements AutoCloseable {

        private final RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());

        Frame send(Broker broker, long producer, long sequence, String text) throws Exception {
            return client.invokeSync(broker.address(), Frame.request(CommandCode.SEND, request(text, producer, sequence),
                    Unpooled.wrappedBuffer(body(text))), TxClient.TIMEOUT);
        }

        Frame parkedSend(Broker broker, String origin, long producer, long sequence, String text) throws Exception {
            return client.invokeSync(broker.address(), Frame.request(CommandCode.PARKED_SEND,
                    new ParkedSendRequest(origin, request(text, producer, sequence)),
                    Unpooled.wrappedBuffer(body(text))), TxClient.TIMEOUT);
        }

        List<ParkedSendStats> parked(Broker broker) throws Exception {
            return client.invokeSync(broker.address(), Frame.request(CommandCode.ADMIN_PARKED, null), TxClient.TIMEOUT)
                    .header(ParkedSendList.class).parked();
        }

        long resolve(Broker broker, String group, boolean commit) throws Exception {
            return client.invokeSync(broker.address(), Frame.request(CommandCode.ADMIN_PARKED_RESOLVE,
                    new ParkedResolveRequest(group, commit)), TxClient.TIMEOUT).header(AdminCount.class).count();
        }

        void login(Broker broker, String user, String password) throws Exception {
            Frame answer = client.invokeSync(broker.address(), Frame.request(CommandCode.AUTHENTICATE,
                    new AuthenticateRequest(user, password)), TxClient.TIMEOUT);
            assertFalse(answer.isError(), user + " logs in");
        }

        /** PARKED_QUERY as a member of the cluster proven by its secret. */
        boolean query(Broker broker, long producer, long sequence) throws Exception {
            new ClusterIntroduction(TxBrokers.CLUSTER_SECRET, "group-x", 0).to(client, broker.address(),
                    TxClient.TIMEOUT).get(TxClient.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Frame answer = queryFrame(broker, producer, sequence);
            assertFalse(answer.isError(), () -> answer.header(ErrorHeader.class).message());
            return answer.header(ParkedQueryResponse.class).held();
        }

        /** PARKED_QUERY without proving membership: the error status. */
        int queryError(Broker broker, long producer, long sequence) {
            return assertThrows(RemotingCommandException.class, () -> queryFrame(broker, producer, sequence),
                    "PARKED_QUERY answered to a connection that proved no membership").status();
        }

        private Frame queryFrame(Broker broker, long producer, long sequence) throws Exception {
            return client.invokeSync(broker.address(), Frame.request(CommandCode.PARKED_QUERY,
                    new ParkedQueryRequest(producer, sequence)), TxClient.TIMEOUT);
        }

        private static SendRequest request(String text, long producer, long sequence) {
            return new SendRequest(QUEUE, DestinationKind.QUEUE, 0, true, 0, 0, properties().length, 0, producer,
                    sequence);
        }

        private static byte[] properties() {
            return MessagePropertiesCodec.encode(new MessageHeaders());
        }

        private static byte[] body(String text) {
            byte[] properties = properties();
            byte[] body = text.getBytes(StandardCharsets.UTF_8);
            byte[] all = new byte[properties.length + body.length];
            System.arraycopy(properties, 0, all, 0, properties.length);
            System.arraycopy(body, 0, all, properties.length, body.length);
            return all;
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
