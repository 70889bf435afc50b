package io.ramjet.provider.jms.scale;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.transaction.Destinations;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placement is the cluster's decision: two NameServers and broker groups {@code a} and {@code b}
 * (one master each, two queues per destination, the default 30 s heartbeat). An auto-created
 * queue lives on every group; a queue whose home is down, or that restarted NameServers do not
 * know yet, is never created on another group; sessions spread evenly over every queue of every
 * group; a group that joins is used by connections opened before it did; a send whose group is
 * down moves at once to the queue's other group.
 */
class PlacementTest {

    private static final Duration REQUEST = Duration.ofSeconds(5);
    private static final int QUEUES = 2;

    @TempDir
    Path dir;

    private final List<NameServer> nameServers = new ArrayList<>();
    private final Map<String, Broker> groups = new LinkedHashMap<>();
    private RemotingClient remoting;

    @BeforeEach
    void start() throws Exception {
        for (int i = 0; i < 2; i++) {
            nameServers.add(nameServerOn(0));
        }
        startGroup("a");
        startGroup("b");
        remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> nameServers.stream().allMatch(n ->
                brokersKnownTo(n).size() == 2));
    }

    @AfterEach
    void stop() {
        if (remoting != null) {
            remoting.close();
        }
        groups.values().forEach(Broker::close);
        nameServers.forEach(NameServer::close);
    }

    private static NameServer nameServerOn(int port) throws Exception {
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(port));
        nameServer.start();
        return nameServer;
    }

    private Broker startGroup(String name) throws Exception {
        BrokerConfigBuilder builder = BrokerConfig.builder(dir.resolve(name)).brokerName(name).port(0)
                .nameServers(nameServers.stream().map(NameServer::address).toList()).queuesPerDestination(QUEUES);
        builder.store().segmentSize(16 << 20);
        Broker broker = new Broker(builder.build());
        broker.start();
        groups.put(name, broker);
        return broker;
    }

    private List<BrokerInfo> brokersKnownTo(NameServer nameServer) {
        return new NameServerClient(remoting(), List.of(nameServer.address()), REQUEST).listBrokers().join();
    }

    private RemotingClient remoting() {
        if (remoting == null) {
            remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1));
        }
        return remoting;
    }

    private RouteData route(String queue) {
        return new NameServerClient(remoting, nameServers.stream().map(NameServer::address).toList(), REQUEST)
                .queryRouteFromAll(queue).join();
    }

    private List<String> groupsRouting(String queue) {
        return route(queue).brokers().stream().map(r -> r.broker().brokerName()).distinct().sorted().toList();
    }

    private Connection connect(String options) throws JMSException {
        String servers = String.join(",", nameServers.stream().map(NameServer::address).toList());
        Connection connection = new RamjetConnectionFactory("ramjet://" + servers + "?" + options).createConnection();
        connection.start();
        return connection;
    }

    /** Messages stored for {@code queue} on each queue of the group, in queue id order. */
    private List<Long> stored(String group, String queue) {
        Broker broker = groups.get(group);
        String storageName = Destination.storageName(DestinationKind.QUEUE, queue);
        return IntStream.range(0, QUEUES).mapToObj(id -> broker.store().maxQueueOffset(storageName, id)).toList();
    }

    private boolean hosts(String group, String queue) {
        return groups.get(group).store().queueDestinations().contains(Destination.storageName(DestinationKind.QUEUE,
                queue));
    }

    @Test
    void anAutoCreatedQueueLivesOnEveryGroup() throws Exception {
        String queue = Destinations.unique("spread");
        try (Connection connection = connect("failoverTimeout=300")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue(queue)).send(session.createTextMessage("first"));
        }
        await().atMost(REQUEST).untilAsserted(() -> assertEquals(List.of("a", "b"), groupsRouting(queue)));
    }

    @Test
    void aQueueWhoseHomeIsDownIsNotCreatedOnAnotherGroup() throws Exception {
        String queue = Destinations.unique("homed");
        Destinations.createQueueOn(nameServers.get(0).address(), groups.get("a").address(), queue);
        await().atMost(REQUEST).untilAsserted(() -> assertEquals(List.of("a"), groupsRouting(queue)));
        groups.remove("a").close();
        try (Connection connection = connect("failoverTimeout=300")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            assertThrows(JMSException.class, () -> producer.send(session.createTextMessage("while a is down")));
        }
        assertFalse(hosts("b", queue), "b was not made the queue's home");
        assertEquals(List.of("a"), route(queue).homeGroups(), "the NameServers keep a as its home");
    }

    /**
     * With no master registered, a send to a new queue waits for one as long as the failover
     * timeout says, not the (here far longer) request timeout.
     */
    @Test
    void withNoMasterRegisteredASendToANewQueueFailsAfterTheFailoverTimeout() throws Exception {
        String queue = Destinations.unique("no-master");
        try (Connection connection = connect("failoverTimeout=300&requestTimeout=30000")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            groups.values().forEach(Broker::close);
            groups.clear();
            await().atMost(REQUEST).until(() -> nameServers.stream().allMatch(n -> brokersKnownTo(n).isEmpty()));

            long started = System.nanoTime();
            assertThrows(JMSException.class, () -> producer.send(session.createTextMessage("nowhere")));
            long tookMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
            assertTrue(tookMillis < 15_000, "the send failed after " + tookMillis + " ms");
        }
    }

    @Test
    void restartedNameServersLearnTheBrokersAtOnceAndSendsFindTheQueueOnItsHome() throws Exception {
        String queue = Destinations.unique("after-restart");
        Destinations.createQueueOn(nameServers.get(0).address(), groups.get("b").address(), queue);
        await().atMost(REQUEST).until(() -> route(queue).homeGroups().equals(List.of("b")));
        List<Integer> ports = nameServers.stream().map(NameServer::port).toList();
        nameServers.forEach(NameServer::close);
        nameServers.clear();
        for (int port : ports) {
            nameServers.add(nameServerOn(port));
        }
        try (Connection connection = connect("failoverTimeout=5000")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue(queue)).send(session.createTextMessage("to its home"));
        }
        assertEquals(1L, stored("b", queue).stream().mapToLong(Long::longValue).sum(), "stored on b, its home");
        assertFalse(hosts("a", queue), "not created on a");
        await().atMost(NameServerConfig.DEFAULT_REGISTRATION_WINDOW.plusSeconds(1)).until(() -> nameServers.stream()
                .allMatch(n -> brokersKnownTo(n).size() == 2));
    }

    @Test
    void sessionsSpreadEvenlyOverEveryQueueOfEveryGroup() throws Exception {
        String queue = Destinations.unique("even");
        int sessions = 4 * 2 * QUEUES;
        try (Connection connection = connect("failoverTimeout=300")) {
            Session first = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            first.createProducer(first.createQueue(queue)).send(first.createTextMessage("creates it"));
            for (int i = 1; i < sessions; i++) {
                Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                session.createProducer(session.createQueue(queue)).send(session.createTextMessage("s" + i));
            }
        }
        List<Long> perQueue = new ArrayList<>(stored("a", queue));
        perQueue.addAll(stored("b", queue));
        assertEquals(List.of(4L, 4L, 4L, 4L), perQueue, "each of the 4 queues gets a quarter of the sessions");
    }

    @Test
    void aSendWhoseGroupIsDownMovesAtOnceToTheQueuesOtherGroupWithNoLossAndNoDuplicate() throws Exception {
        String queue = Destinations.unique("moves");
        int sessions = 2 * 2 * QUEUES;
        List<String> after = new ArrayList<>();
        try (Connection connection = connect("failoverTimeout=20000")) {
            List<Session> open = new ArrayList<>();
            List<MessageProducer> producers = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(session.createQueue(queue));
                producer.send(session.createTextMessage("before-" + i));
                open.add(session);
                producers.add(producer);
            }
            assertEquals(sessions / 2, stored("a", queue).stream().mapToLong(Long::longValue).sum(),
                    "half of the sessions send to a");
            groups.remove("a").close();
            await().atMost(REQUEST).until(() -> nameServers.stream().allMatch(n -> brokersKnownTo(n).size() == 1));
            for (int i = 0; i < sessions; i++) {
                long start = System.nanoTime();
                producers.get(i).send(open.get(i).createTextMessage("after-" + i));
                long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
                assertTrue(millis < 3000, "session " + i + "'s send took " + millis + " ms (failoverTimeout 20 s)");
                after.add("after-" + i);
            }
            Session receiving = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = receiving.createConsumer(receiving.createQueue(queue));
            List<String> received = new ArrayList<>();
            for (TextMessage m = (TextMessage) consumer.receive(5000); m != null;
                    m = (TextMessage) consumer.receive(received.size() < sessions / 2 + sessions ? 5000 : 200)) {
                received.add(m.getText());
            }
            assertEquals(after, received.stream().filter(text -> text.startsWith("after-")).sorted(
                    Comparator.comparingInt(text -> Integer.parseInt(text.substring(6)))).toList(),
                    "every send made while a was down is on b, once");
            assertEquals(sessions / 2, received.stream().filter(text -> text.startsWith("before-")).count(),
                    "b's earlier messages");
        }
    }

    @Test
    void aGroupThatJoinsIsUsedByConnectionsOpenedBeforeWithinTheDiscoveryInterval() throws Exception {
        String queue = Destinations.unique("joined");
        try (Connection connection = connect("failoverTimeout=300&discoveryMillis=500")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue destination = session.createQueue(queue);
            MessageProducer producer = session.createProducer(destination);
            producer.send(session.createTextMessage("before"));
            Broker c = startGroup("c");
            Destinations.createQueueOn(nameServers.get(0).address(), c.address(), queue);
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                Session fresh = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                fresh.createProducer(destination).send(fresh.createTextMessage("after"));
                fresh.close();
                return stored("c", queue).stream().mapToLong(Long::longValue).sum() > 0;
            });
        }
        assertTrue(hosts("c", queue));
    }
}
