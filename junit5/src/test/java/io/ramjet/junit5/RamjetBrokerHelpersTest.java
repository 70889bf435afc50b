package io.ramjet.junit5;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RamjetBrokerHelpersTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @RegisterExtension
    static RamjetBroker broker = RamjetBroker.create();

    /** Each test on its own queue, since they share the broker. */
    private static String queue(TestInfo test) {
        return test.getTestMethod().orElseThrow().getName();
    }

    @Test
    void aTextSentIsReceived(TestInfo test) throws JMSException {
        TextMessage sent = broker.send(queue(test), "hello");

        Message received = broker.receive(queue(test), WAIT);

        assertNotNull(sent.getJMSMessageID());
        assertEquals(sent.getJMSMessageID(), received.getJMSMessageID());
        assertEquals("hello", received.getBody(String.class));
    }

    @Test
    void aMessageOfTheTestsOwnSessionIsSentWithItsProperties(TestInfo test) throws JMSException {
        try (JMSContext context = broker.connectionFactory().createContext()) {
            Message message = context.createTextMessage("order");
            message.setStringProperty("customer", "alice");

            broker.send(queue(test), message);
        }

        Message received = broker.receive(queue(test), WAIT);
        assertEquals("alice", received.getStringProperty("customer"));
    }

    @Test
    void theMessageCountFollowsSendsAndReceives(TestInfo test) {
        broker.send(queue(test), "one");
        broker.send(queue(test), "two");
        broker.send(queue(test), "three");
        assertEquals(3, broker.messageCount(queue(test)));

        assertNotNull(broker.receive(queue(test), WAIT));

        assertEquals(2, broker.messageCount(queue(test)));
    }

    @Test
    void receiveGivesNullWhenNothingCameInTime(TestInfo test) {
        assertNull(broker.receive(queue(test), Duration.ofMillis(100)));
    }

    @Test
    void receiveRefusesATimeoutOfZero(TestInfo test) {
        assertThrows(IllegalArgumentException.class, () -> broker.receive(queue(test), Duration.ZERO));
    }

    @Test
    void aCreatedQueueIsEmptyAndTakesMessages(TestInfo test) throws JMSException {
        assertEquals(queue(test), broker.createQueue(queue(test)).getQueueName());
        assertEquals(0, broker.messageCount(queue(test)));

        broker.send(queue(test), "first");

        assertEquals(1, broker.messageCount(queue(test)));
    }

    @Test
    void theConnectionFactoryReachesTheBroker(TestInfo test) throws JMSException {
        broker.send(queue(test), "through the url");

        try (Connection connection = broker.connectionFactory().createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue(test)));
            connection.start();
            Message received = consumer.receive(WAIT.toMillis());
            assertEquals("through the url", received.getBody(String.class));
        }
        assertTrue(broker.url().startsWith("ramjet://127.0.0.1:"), broker.url());
    }

}
