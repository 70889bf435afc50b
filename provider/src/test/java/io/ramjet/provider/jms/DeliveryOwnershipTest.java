package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A delivered message belongs to the consumer it was delivered to: after the broker restarts,
 * what the application holds from before can no longer be acknowledged or committed (the call
 * says so and the message comes back redelivered, once), and a consumer that closes gives back
 * what it prefetched without counting a delivery.
 */
class DeliveryOwnershipTest {

    private static final long TIMEOUT = 10_000;

    private EmbeddedCluster cluster;
    private Connection connection;

    @BeforeEach
    void start() throws JMSException {
        cluster = EmbeddedCluster.start(1);
        connection = new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress()).createConnection();
        connection.start();
    }

    @AfterEach
    void stop() throws JMSException {
        connection.close();
        cluster.close();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private void send(Queue queue, String... texts) throws JMSException {
        try (Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            MessageProducer p = s.createProducer(queue);
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
        }
    }

    private void restartBroker() {
        int port = cluster.broker(0).port();
        cluster.stopBroker(0);
        cluster.restartBroker(0, port);
    }

    @Test
    void anAcknowledgementOfADeliveryFromBeforeABrokerRestartFailsAndTheMessageComesBackOnce() throws Exception {
        Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue(unique("client-ack-restart"));
        send(queue, "m");
        MessageConsumer consumer = session.createConsumer(queue);
        Message first = consumer.receive(TIMEOUT);
        assertEquals("m", ((TextMessage) first).getText());
        restartBroker();
        assertThrows(JMSException.class, first::acknowledge, "the delivery was lost with the restart");
        Message again = consumer.receive(TIMEOUT);
        assertNotNull(again, "the message comes back");
        assertEquals("m", ((TextMessage) again).getText());
        assertTrue(again.getJMSRedelivered());
        again.acknowledge();
        assertNull(consumer.receive(500), "once");
    }

    @Test
    void aTransactionThatConsumedBeforeABrokerRestartRollsBackInsteadOfCommitting() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        Queue in = tx.createQueue(unique("tx-restart-in"));
        Queue out = tx.createQueue(unique("tx-restart-out"));
        send(in, "m");
        MessageConsumer consumer = tx.createConsumer(in);
        assertNotNull(consumer.receive(TIMEOUT));
        restartBroker();
        tx.createProducer(out).send(tx.createTextMessage("moved"));
        assertThrows(TransactionRolledBackException.class, tx::commit);
        Message again = consumer.receive(TIMEOUT);
        assertNotNull(again, "the consumed message comes back");
        assertTrue(again.getJMSRedelivered());
        tx.createProducer(out).send(tx.createTextMessage("moved"));
        tx.commit();
        try (Session plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            MessageConsumer onOut = plain.createConsumer(out);
            assertEquals("moved", ((TextMessage) onOut.receive(TIMEOUT)).getText());
            assertNull(onOut.receive(500), "moved exactly once");
        }
    }

    @Test
    void aClosedConsumerGivesBackWhatItPrefetchedWithoutCountingADelivery() throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(unique("prefetch-back"));
        send(queue, "a", "b", "c", "d", "e");
        MessageConsumer first = session.createConsumer(queue);
        assertEquals("a", ((TextMessage) first.receive(TIMEOUT)).getText());
        first.close();
        MessageConsumer second = session.createConsumer(queue);
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Message m = second.receive(TIMEOUT);
            assertNotNull(m, "received " + rest);
            assertFalse(m.getJMSRedelivered(), "the application never saw " + ((TextMessage) m).getText());
            rest.add(((TextMessage) m).getText());
        }
        assertEquals(List.of("b", "c", "d", "e"), rest.stream().sorted().toList());
    }

    @Test
    void aMessageAConsumerClosedWithBeforeItsSessionAcknowledgedStaysTheSessions() throws Exception {
        Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue(unique("closed-then-ack"));
        send(queue, "m");
        MessageConsumer consumer = session.createConsumer(queue);
        Message m = consumer.receive(TIMEOUT);
        consumer.close();
        try (Session other = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            assertNull(other.createConsumer(queue).receive(500), "still delivered to the closed consumer's session");
        }
        m.acknowledge();
        try (Session other = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            assertNull(other.createConsumer(queue).receive(500), "acknowledged");
        }
    }

    @Test
    void closingAConnectionWithFiftyConsumersDoesNotWaitForTheirHeldPulls() throws Exception {
        Connection many = new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress()).createConnection();
        many.start();
        Session session = many.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(unique("many"));
        for (int i = 0; i < 50; i++) {
            session.createConsumer(queue);
        }
        long started = System.nanoTime();
        many.close();
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.println("closing a connection with 50 idle consumers took " + millis + " ms");
        assertTrue(millis < 5_000, "took " + millis + " ms");
    }
}
