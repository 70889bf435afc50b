package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Transacted sessions on one broker: visibility of sends and receives at commit and rollback. */
class LocalTransactionTest {

    private static final long TIMEOUT = 5_000;
    private static final long SHORT = 300;

    private static EmbeddedBroker broker;
    private Connection connection;
    private Session plain;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static RamjetConnectionFactory factory() {
        return new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress());
    }

    @BeforeEach
    void connect() throws Exception {
        connection = factory().createConnection();
        connection.start();
        plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    private Queue queue(String prefix) throws Exception {
        return plain.createQueue(Destinations.unique(prefix));
    }

    @Test
    void aTransactedSessionSaysSo() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        assertTrue(tx.getTransacted());
        assertEquals(Session.SESSION_TRANSACTED, tx.getAcknowledgeMode());
        assertThrows(IllegalStateException.class, tx::recover);
    }

    @Test
    void sendsAreInvisibleUntilCommit() throws Exception {
        Queue q = queue("tx-send");
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer producer = tx.createProducer(q);
        producer.send(tx.createTextMessage("one"));
        producer.send(tx.createTextMessage("two"));
        MessageConsumer consumer = plain.createConsumer(q);
        assertNull(consumer.receive(SHORT));
        tx.commit();
        assertEquals("one", ((TextMessage) consumer.receive(TIMEOUT)).getText());
        assertEquals("two", ((TextMessage) consumer.receive(TIMEOUT)).getText());
    }

    @Test
    void rolledBackSendsAreNeverVisible() throws Exception {
        Queue q = queue("tx-rollback-send");
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer producer = tx.createProducer(q);
        producer.send(tx.createTextMessage("dropped"));
        tx.rollback();
        producer.send(tx.createTextMessage("kept"));
        tx.commit();
        MessageConsumer consumer = plain.createConsumer(q);
        assertEquals("kept", ((TextMessage) consumer.receive(TIMEOUT)).getText());
        assertNull(consumer.receive(SHORT));
    }

    @Test
    void committedReceivesAreGone() throws Exception {
        Queue q = queue("tx-receive");
        plain.createProducer(q).send(plain.createTextMessage("once"));
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer txConsumer = tx.createConsumer(q);
        assertNotNull(txConsumer.receive(TIMEOUT));
        tx.commit();
        txConsumer.close();
        tx.close();
        assertNull(plain.createConsumer(q).receive(SHORT));
    }

    @Test
    void rolledBackReceivesComeBackRedeliveredWithTheirCountRaised() throws Exception {
        Queue q = queue("tx-redeliver");
        plain.createProducer(q).send(plain.createTextMessage("again"));
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer consumer = tx.createConsumer(q);
        Message first = consumer.receive(TIMEOUT);
        assertFalse(first.getJMSRedelivered());
        assertEquals(1, first.getIntProperty("JMSXDeliveryCount"));
        tx.rollback();
        Message second = consumer.receive(TIMEOUT);
        assertNotNull(second, "a rolled-back message is delivered again");
        assertEquals(first.getJMSMessageID(), second.getJMSMessageID());
        assertTrue(second.getJMSRedelivered());
        assertEquals(2, second.getIntProperty("JMSXDeliveryCount"));
        tx.commit();
        assertNull(consumer.receive(SHORT));
    }

    @Test
    void redeliveryAfterRollbackKeepsTheOrder() throws Exception {
        Queue q = queue("tx-order");
        MessageProducer producer = plain.createProducer(q);
        for (int i = 0; i < 5; i++) {
            producer.send(plain.createTextMessage("m" + i));
        }
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer consumer = tx.createConsumer(q);
        assertEquals("m0", ((TextMessage) consumer.receive(TIMEOUT)).getText());
        assertEquals("m1", ((TextMessage) consumer.receive(TIMEOUT)).getText());
        tx.rollback();
        for (int i = 0; i < 5; i++) {
            assertEquals("m" + i, ((TextMessage) consumer.receive(TIMEOUT)).getText());
        }
        tx.commit();
    }

    @Test
    void consumeAndProduceMovesAMessageExactlyOnce() throws Exception {
        Queue from = queue("tx-from");
        Queue to = queue("tx-to");
        plain.createProducer(from).send(plain.createTextMessage("parcel"));
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer in = tx.createConsumer(from);
        MessageProducer out = tx.createProducer(to);
        out.send(in.receive(TIMEOUT));
        tx.rollback();
        out.send(in.receive(TIMEOUT));
        tx.commit();
        in.close();
        MessageConsumer check = plain.createConsumer(to);
        assertEquals("parcel", ((TextMessage) check.receive(TIMEOUT)).getText());
        assertNull(check.receive(SHORT));
        assertNull(plain.createConsumer(from).receive(SHORT));
    }

    @Test
    void messagesOfAClosedConsumerStayInTheTransaction() throws Exception {
        Queue q = queue("tx-closed-consumer");
        plain.createProducer(q).send(plain.createTextMessage("kept in the transaction"));
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer txConsumer = tx.createConsumer(q);
        assertNotNull(txConsumer.receive(TIMEOUT));
        txConsumer.close();
        MessageConsumer other = plain.createConsumer(q);
        assertNull(other.receive(SHORT), "a message consumed in an open transaction is not given to another consumer");
        tx.commit();
        assertNull(other.receive(SHORT), "the commit acknowledged it");
    }

    @Test
    void closingATransactedSessionRollsBack() throws Exception {
        Queue q = queue("tx-close");
        plain.createProducer(q).send(plain.createTextMessage("consumed"));
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        assertNotNull(tx.createConsumer(q).receive(TIMEOUT));
        tx.createProducer(q).send(tx.createTextMessage("unsent"));
        tx.close();
        MessageConsumer consumer = plain.createConsumer(q);
        Message back = consumer.receive(TIMEOUT);
        assertEquals("consumed", ((TextMessage) back).getText());
        assertTrue(back.getJMSRedelivered());
        assertNull(consumer.receive(SHORT));
    }

    @Test
    void aTransactionThatDidNothingCommitsAndRollsBack() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        tx.commit();
        tx.rollback();
    }

    @Test
    void aContextTransactionCommitsAndRollsBack() throws Exception {
        Queue q = queue("tx-context");
        try (JMSContext context = factory().createContext(JMSContext.SESSION_TRANSACTED)) {
            assertTrue(context.getTransacted());
            context.createProducer().send(q, "dropped");
            context.rollback();
            context.createProducer().send(q, "kept");
            context.commit();
            jakarta.jms.JMSConsumer consumer = context.createConsumer(q);
            assertEquals("kept", consumer.receiveBody(String.class, TIMEOUT));
            context.rollback();
            assertEquals("kept", consumer.receiveBody(String.class, TIMEOUT));
            context.commit();
        }
        assertNull(plain.createConsumer(q).receive(SHORT));
    }

    @Test
    void asyncSendsOfATransactionCompleteBeforeItsCommit() throws Exception {
        Queue q = queue("tx-async");
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer producer = tx.createProducer(q);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            producer.send(tx.createTextMessage("a" + i), new jakarta.jms.CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    done.countDown();
                }

                @Override
                public void onException(Message message, Exception exception) {
                }
            });
        }
        tx.commit();
        MessageConsumer consumer = plain.createConsumer(q);
        for (int i = 0; i < 3; i++) {
            assertEquals("a" + i, ((TextMessage) consumer.receive(TIMEOUT)).getText());
        }
        assertTrue(done.await(TIMEOUT, java.util.concurrent.TimeUnit.MILLISECONDS));
    }
}
