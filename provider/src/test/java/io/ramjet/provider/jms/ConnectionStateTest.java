package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.client.InMemoryBrokerClient;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A connection's states as the specification states them: no broker needed, an in-memory one serves. */
class ConnectionStateTest {

    private final InMemoryBrokerClient.Broker broker = new InMemoryBrokerClient.Broker();

    private RamjetConnectionFactory factory() {
        return InMemoryFactories.factory(broker, "");
    }

    private Connection connect() throws JMSException {
        Connection connection = factory().createConnection();
        connection.start();
        return connection;
    }

    @Test
    void startStopAndCloseAreIdempotent() throws Exception {
        Connection connection = factory().createConnection();
        connection.start();
        connection.start();
        connection.stop();
        connection.stop();
        connection.close();
        assertDoesNotThrow(connection::close);
    }

    @Test
    void metadataListsTheSupportedJmsxProperties() throws Exception {
        try (Connection connection = factory().createConnection()) {
            List<String> names = Collections.list(connection.getMetaData().getJMSXPropertyNames());
            assertTrue(names.containsAll(List.of("JMSXDeliveryCount", "JMSXGroupID", "JMSXGroupSeq")));
            assertEquals(3, connection.getMetaData().getJMSMajorVersion());
        }
    }

    @Test
    void clientIdIsSetOnceBeforeUse() throws Exception {
        try (Connection connection = factory().createConnection()) {
            connection.setClientID("id");
            assertThrows(IllegalStateException.class, () -> connection.setClientID("again"));
        }
        try (Connection connection = factory().createConnection()) {
            connection.createSession(Session.AUTO_ACKNOWLEDGE);
            assertThrows(IllegalStateException.class, () -> connection.setClientID("late"));
        }
    }

    @Test
    void closedObjectsThrowIllegalStateException() throws Exception {
        Connection connection = connect();
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("closed");
        MessageProducer producer = session.createProducer(queue);
        MessageConsumer consumer = session.createConsumer(queue);
        connection.close();
        assertThrows(IllegalStateException.class, () -> connection.createSession(Session.AUTO_ACKNOWLEDGE));
        assertThrows(IllegalStateException.class, () -> session.createTextMessage());
        assertThrows(IllegalStateException.class, () -> producer.send(queue, null));
        assertThrows(IllegalStateException.class, () -> producer.getDeliveryMode());
        assertThrows(IllegalStateException.class, consumer::receiveNoWait);
        assertDoesNotThrow(session::close);
        assertDoesNotThrow(consumer::close);
    }
}
