package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ramjet.server.broker.BrokerConfig;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dead letters carry where they came from, and {@code queue move} sends them back to be consumed. */
class DeadLetterMoveTest extends DeploymentTest {

    @Override
    UnaryOperator<BrokerConfig> tuning() {
        return c -> c.withMaxDeliveries(2);
    }

    @Test
    void deadLettersMovedBackAreConsumedFromTheirQueue() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            connection.start();
            QueueCommandTest.send(connection, "orders", 3, 0);
            rollBackUntilEmpty(connection, "orders");

            JsonNode dlq = cli.json("browse", "--queue", "DLQ.orders").get("messages");
            assertEquals(3, dlq.size());
            for (JsonNode m : dlq) {
                assertEquals("orders", m.get("properties").get("JMS_RamjetOriginalDestination").asText());
                assertEquals("QUEUE", m.get("properties").get("JMS_RamjetOriginalDestinationKind").asText());
                assertTrue(m.get("properties").has("JMS_RamjetDeadLetterReason"));
            }
            JsonNode selected = cli.json("browse", "--queue", "DLQ.orders", "--selector",
                    "JMS_RamjetOriginalDestination = 'orders'").get("messages");
            assertEquals(3, selected.size(), "a selector on the vendor properties sees every dead letter");

            assertEquals(3, cli.json("queue", "move", "--from", "DLQ.orders").get("moved").asLong());

            assertEquals(0, cli.stat("DLQ.orders").get("ready").asLong());
            assertEquals(3, cli.stat("orders").get("ready").asLong());
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Set<String> bodies = new HashSet<>();
            try (MessageConsumer consumer = session.createConsumer(session.createQueue("orders"))) {
                Message m;
                while (bodies.size() < 3 && (m = consumer.receive(5_000)) != null) {
                    bodies.add(m.getBody(String.class));
                }
                assertNull(consumer.receive(200));
            }
            assertEquals(Set.of("orders 0", "orders 1", "orders 2"), bodies);
        }
    }

    @Test
    void moveBySelectorToANamedQueueMovesOnlyTheSelected() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            QueueCommandTest.send(connection, "orders", 4, 0);
            QueueCommandTest.send(connection, "archive", 1, 0);
            assertEquals(1, cli.json("queue", "move", "--from", "orders", "--to", "archive", "--selector",
                    "JMSMessageID IS NOT NULL", "--max", "1").get("moved").asLong());
            assertEquals(2, cli.json("queue", "move", "--from", "orders", "--to", "archive", "--copy", "--max", "2")
                    .get("moved").asLong());
            assertEquals(3, cli.stat("orders").get("ready").asLong());
            assertEquals(4, cli.stat("archive").get("ready").asLong());
        }
    }

    /** Receives and rolls back until the queue gives nothing: every message went to the dead-letter queue. */
    static void rollBackUntilEmpty(Connection connection, String queue) throws JMSException {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        try (MessageConsumer consumer = tx.createConsumer(tx.createQueue(queue))) {
            while (consumer.receive(1_000) != null) {
                tx.rollback();
            }
        }
        tx.close();
    }
}
