package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.provider.jms.transaction.Destinations;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two brokers behind one NameServer: a producer moves to the other master when its broker
 * fails, a consumer reads from every broker that hosts its queue, finds one that starts hosting
 * it later, and reads again from one that comes back; a client id is claimed on both.
 */
class MultiBrokerTest {

    private static final long TIMEOUT = 10_000;
    private static final Duration REQUEST = Duration.ofSeconds(5);

    private EmbeddedCluster cluster;
    private RemotingClient remoting;

    @BeforeEach
    void start() {
        cluster = EmbeddedCluster.start(2);
        remoting = new RemotingClient(RemotingClientConfig.defaults());
    }

    @AfterEach
    void stop() {
        remoting.close();
        cluster.close();
    }

    private Connection connect() throws JMSException {
        Connection c = unstarted();
        c.start();
        return c;
    }

    /**
     * Each broker here is a group of its own, with no slave: a stopped one has no next master, so
     * a producer goes around it once the (short) failover timeout passes.
     */
    private Connection unstarted() throws JMSException {
        return new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress() + "?failoverTimeout=300")
                .createConnection();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The index of the one running broker that stored messages of {@code queue}. */
    private int holderOf(String queue) {
        String storageName = Destination.storageName(DestinationKind.QUEUE, queue);
        List<Integer> holders = new ArrayList<>();
        for (int i = 0; i < cluster.brokerCount(); i++) {
            Broker broker = cluster.broker(i);
            if (broker != null && IntStream.range(0, broker.config().queuesPerDestination())
                    .anyMatch(q -> broker.store().maxQueueOffset(storageName, q) > 0)) {
                holders.add(i);
            }
        }
        assertEquals(1, holders.size(), "one broker stored " + queue);
        return holders.get(0);
    }

    /** Creates the queue on one broker, as an operator placing it there does. */
    private void createOn(int broker, String queue) throws Exception {
        remoting.invokeSync(cluster.broker(broker).address(), Frame.request(CommandCode.CREATE_DESTINATION,
                new CreateDestinationRequest(queue, DestinationKind.QUEUE, 0)), REQUEST);
    }

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "a message arrives");
        return ((TextMessage) m).getText();
    }

    @Test
    void aProducerMovesToTheOtherBrokerAndAConsumerReadsFromBoth() throws Exception {
        try (Connection producing = connect()) {
            Session session = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("failover"));
            MessageProducer producer = session.createProducer(queue);
            producer.send(session.createTextMessage("1"));
            int first = holderOf(queue.getQueueName());
            int port = cluster.broker(first).port();
            cluster.stopBroker(first);
            producer.send(session.createTextMessage("2"));
            cluster.restartBroker(first, port);
            try (Connection consuming = connect()) {
                MessageConsumer consumer = consuming.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
                Set<String> got = new HashSet<>();
                got.add(text(consumer.receive(TIMEOUT)));
                got.add(text(consumer.receive(TIMEOUT)));
                assertEquals(Set.of("1", "2"), got, "one message on each broker, none lost");
                assertNull(consumer.receive(300));
            }
        }
    }

    @Test
    void aConsumerOfAQueueItsConnectionRoutesAlreadyAsksTheNameServerAtOnceForTheOtherBrokers() throws Exception {
        try (Connection other = connect(); Connection own = new RamjetConnectionFactory("ramjet://"
                + cluster.nameServerAddress() + "?failoverTimeout=300&discoveryMillis=600000").createConnection()) {
            own.start();
            Session session = own.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("known"));
            session.createProducer(queue).send(session.createTextMessage("1"));
            int first = holderOf(queue.getQueueName());
            int port = cluster.broker(first).port();
            cluster.stopBroker(first);
            Session otherSession = other.createSession(Session.AUTO_ACKNOWLEDGE);
            otherSession.createProducer(queue).send(otherSession.createTextMessage("2"));
            cluster.restartBroker(first, port);

            MessageConsumer consumer = session.createConsumer(queue);
            Set<String> got = new HashSet<>();
            got.add(text(consumer.receive(TIMEOUT)));
            got.add(text(consumer.receive(TIMEOUT)));
            assertEquals(Set.of("1", "2"), got, "read from the broker its connection knew and from the other, "
                    + "long before the discovery period");
        }
    }

    @Test
    void aConsumerFollowsItsQueueToABrokerItIsExtendedToAndBackToOneThatReturns() throws Exception {
        String name = unique("follow");
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(0).address(), name);
        try (Connection consuming = connect(); Connection producing = connect()) {
            Session session = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(name);
            MessageConsumer consumer = consuming.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            MessageProducer producer = session.createProducer(queue);
            producer.send(session.createTextMessage("a"));
            assertEquals("a", text(consumer.receive(TIMEOUT)));

            int first = 0;
            int second = 1;
            createOn(second, name);
            int firstPort = cluster.broker(first).port();
            cluster.stopBroker(first);
            producer.send(session.createTextMessage("b"));
            assertEquals("b", text(consumer.receive(TIMEOUT)), "found on the broker that started hosting the queue");

            cluster.restartBroker(first, firstPort);
            cluster.stopBroker(second);
            producer.send(session.createTextMessage("c"));
            assertEquals("c", text(consumer.receive(TIMEOUT)), "read again from the broker that came back");
        }
    }

    @Test
    void losingOneOfTwoBrokersIsNoExceptionListenerEventLosingTheLastOneIs() throws Exception {
        List<String> told = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> toldOnce = new CompletableFuture<>();
        try (Connection connection = connect()) {
            connection.setExceptionListener(failure -> {
                told.add(failure.getMessage());
                toldOnce.complete(null);
            });
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("listened"));
            MessageConsumer consumer = session.createConsumer(queue);
            MessageProducer producer = session.createProducer(queue);
            producer.send(session.createTextMessage("before"));
            assertEquals("before", text(consumer.receive(TIMEOUT)));
            String first = cluster.broker(0).address();
            String last = cluster.broker(1).address();

            cluster.stopBroker(0);
            producer.send(session.createTextMessage("after"));
            assertEquals("after", text(consumer.receive(TIMEOUT)), "the connection still works");
            cluster.stopBroker(1);
            toldOnce.get(TIMEOUT, TimeUnit.MILLISECONDS);
            assertTrue(told.get(0).contains(last) && !told.get(0).contains(first),
                    "told first of the last broker's loss, not of the first one: " + told);
        }
    }

    @Test
    void aSendWithNoBrokerLeftFailsInsteadOfVanishing() throws Exception {
        try (Connection producing = connect()) {
            Session session = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("nowhere"));
            MessageProducer producer = session.createProducer(queue);
            producer.send(session.createTextMessage("first"));
            cluster.stopBroker(0);
            cluster.stopBroker(1);
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            assertThrows(JMSException.class, () -> producer.send(session.createTextMessage("lost?")));
        }
    }

    @Test
    void aBrokerThatRestartsIsToldTheClaimWhenTheClientReconnects() throws Exception {
        String id = unique("reclaimed");
        String queue = unique("both");
        for (int i = 0; i < 2; i++) {
            remoting.invokeSync(cluster.broker(i).address(), Frame.request(CommandCode.CREATE_DESTINATION,
                    new CreateDestinationRequest(queue, DestinationKind.QUEUE, 0)), REQUEST);
        }
        try (Connection holder = unstarted()) {
            holder.setClientID(id);
            holder.start();
            holder.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(
                    new io.ramjet.provider.destination.RamjetQueue(queue));
            int port = cluster.broker(1).port();
            cluster.stopBroker(1);
            String address = cluster.restartBroker(1, port).address();
            await("the restarted broker learns the claim").atMost(Duration.ofMillis(TIMEOUT)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        try (RemotingClient other = new RemotingClient(RemotingClientConfig.defaults())) {
                            other.invokeSync(address, Frame.request(CommandCode.CLAIM_CLIENT_ID,
                                    ClaimClientIdRequest.claim(id)), REQUEST);
                            return false;
                        } catch (RemotingCommandException refused) {
                            assertEquals(ErrorStatus.CLIENT_ID_IN_USE, refused.status());
                            return true;
                        }
                    });
        }
    }

    @Test
    void aLateClaimRefusedBecauseAnotherConnectionHeldTheIdIsTakenOnceItIsGivenBack() throws Exception {
        String id = unique("late");
        String queue = unique("both");
        for (int i = 0; i < 2; i++) {
            createOn(i, queue);
        }
        try (Connection holder = unstarted()) {
            holder.setClientID(id);
            holder.start();
            holder.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(
                    new io.ramjet.provider.destination.RamjetQueue(queue));
            int port = cluster.broker(1).port();
            cluster.stopBroker(1);
            Broker restarted = cluster.restartBroker(1, port);
            RemotingClient squatter = new RemotingClient(RemotingClientConfig.defaults());
            try {
                squatter.invokeSync(restarted.address(), Frame.request(CommandCode.CLAIM_CLIENT_ID,
                        ClaimClientIdRequest.claim(id)), REQUEST);
                await("the holder reconnects").atMost(Duration.ofMillis(TIMEOUT)).pollInterval(Duration.ofMillis(20))
                        .until(() -> restarted.connectionCount() >= 2);
                // its handshake's claim, sent first on the new connection, is refused meanwhile
                await().pollDelay(Duration.ofMillis(500)).until(() -> true);
            } catch (RemotingCommandException holderWasFirst) {
                assertEquals(ErrorStatus.CLIENT_ID_IN_USE, holderWasFirst.status());
            } finally {
                squatter.close();
            }
            await("the holder claims the id once it is given back").atMost(Duration.ofMillis(TIMEOUT))
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        try (RemotingClient other = new RemotingClient(RemotingClientConfig.defaults())) {
                            other.invokeSync(restarted.address(), Frame.request(CommandCode.CLAIM_CLIENT_ID,
                                    ClaimClientIdRequest.claim(id)), REQUEST);
                            return false;
                        } catch (RemotingCommandException refused) {
                            return refused.status() == ErrorStatus.CLIENT_ID_IN_USE;
                        }
                    });
        }
    }

    @Test
    void aClientIdRefusedByOneBrokerIsGivenBackOnTheOthers() throws Exception {
        String id = unique("cluster-id");
        remoting.invokeSync(cluster.broker(1).address(),
                Frame.request(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim(id)), REQUEST);
        try (Connection c = unstarted()) {
            assertThrows(InvalidClientIDException.class, () -> c.setClientID(id));
        }
        try (RemotingClient other = new RemotingClient(RemotingClientConfig.defaults())) {
            other.invokeSync(cluster.broker(0).address(),
                    Frame.request(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim(id)), REQUEST);
        }
        try (Connection a = unstarted(); Connection b = unstarted()) {
            String shared = unique("both");
            a.setClientID(shared);
            assertThrows(InvalidClientIDException.class, () -> b.setClientID(shared));
        }
    }
}
