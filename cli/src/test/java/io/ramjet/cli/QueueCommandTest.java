package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** {@code queue stat|purge|delete} against a real broker, what it reports checked against what was done. */
class QueueCommandTest extends DeploymentTest {

    private static final long RECEIVE_MILLIS = 5_000;


    @Test
    void depthsFollowSendsAcksDelaysAndRollbacks() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            connection.start();
            send(connection, "orders", 10, 0);
            send(connection, "orders", 2, 60_000);

            Session held = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
            receiveAndClose(held, "orders", 1);
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            receiveAndClose(tx, "orders", 3);
            tx.commit();
            receiveAndClose(tx, "orders", 2);
            tx.rollback();

            JsonNode orders = cli.stat("orders");
            assertEquals(10, orders.get("enqueued").asLong());
            assertEquals(6, orders.get("ready").asLong());
            assertEquals(1, orders.get("inFlight").asLong());
            assertEquals(2, orders.get("redelivering").asLong());
            assertEquals(2, orders.get("delayed").asLong());
            assertEquals(3, orders.get("acknowledged").asLong());
            assertEquals(deployment.broker.broker().config().brokerName(), orders.get("broker").asText());
        }
    }

    @Test
    void purgeTakesWhatNoConsumerHolds() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            connection.start();
            send(connection, "orders", 5, 0);
            Session held = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
            receiveAndClose(held, "orders", 1);

            assertEquals(4, cli.json("queue", "purge", "orders").get("purged").asLong());

            JsonNode orders = cli.stat("orders");
            assertEquals(0, orders.get("ready").asLong());
            assertEquals(1, orders.get("inFlight").asLong());
            held.recover();
            Set<String> bodies = new HashSet<>();
            try (MessageConsumer consumer = held.createConsumer(held.createQueue("orders"))) {
                Message m;
                while ((m = consumer.receive(500)) != null) {
                    bodies.add(m.getBody(String.class));
                }
            }
            assertEquals(Set.of("orders 0"), bodies, "only the message held during the purge comes back");
        }
    }

    @Test
    void purgeOfAQueueNobodyConsumedEmptiesIt() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            send(connection, "orders", 3, 0);
            assertEquals(3, cli.json("queue", "purge", "orders").get("purged").asLong());
            assertEquals(0, cli.stat("orders").get("ready").asLong());
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            try (MessageConsumer consumer = session.createConsumer(session.createQueue("orders"))) {
                assertNull(consumer.receive(300));
            }
        }
    }

    @Test
    void deleteRemovesTheQueue() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            send(connection, "orders", 2, 0);
        }
        assertNotNull(cli.stat("orders"));
        cli.json("queue", "delete", "orders");
        assertNull(cli.stat("orders"));
    }

    static void send(Connection connection, String queue, int count, long delayMillis) throws JMSException {
        try (Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE)) {
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setDeliveryDelay(delayMillis);
            for (int i = 0; i < count; i++) {
                producer.send(session.createTextMessage(queue + " " + i));
            }
        }
    }

    /** Receives {@code count} messages and closes the consumer, so nothing more stays prefetched. */
    static void receiveAndClose(Session session, String queue, int count) throws JMSException {
        Queue q = session.createQueue(queue);
        try (MessageConsumer consumer = session.createConsumer(q)) {
            for (int i = 0; i < count; i++) {
                assertNotNull(consumer.receive(RECEIVE_MILLIS), "message " + i);
            }
        }
    }
}
