package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

/**
 * Credentials at connection time: {@code ConnectionFactory.createConnection(user, password)}
 * throws {@code JMSSecurityException} "if client authentication fails due to an invalid user name
 * or password", {@code createContext(user, password)} throws {@code JMSSecurityRuntimeException};
 * known credentials and no credentials (a broker that admits anonymous connections) work.
 * Authorization: an operation the user's roles do not allow throws {@code JMSSecurityException}
 * ({@code JMSSecurityRuntimeException} from a context) and leaves the connection usable.
 */
class SecurityTest {

    @ProviderTest
    void aWrongPasswordRefusesTheConnection(Jms jms) {
        assertThrows(JMSSecurityException.class,
                () -> jms.closeLater(jms.factory().createConnection(ProviderUnderTest.USER, "wrong-password")));
    }

    @ProviderTest
    void anUnknownUserRefusesTheConnection(Jms jms) {
        assertThrows(JMSSecurityException.class,
                () -> jms.closeLater(jms.factory().createConnection("nobody", "definitely-wrong-password")));
    }

    @ProviderTest
    void badCredentialsRefuseTheContext(Jms jms) {
        assertThrows(JMSSecurityRuntimeException.class, () -> {
            try (JMSContext context = jms.factory().createContext("nobody", "definitely-wrong-password")) {
                context.createProducer();
            }
        });
    }

    @ProviderTest
    void knownCredentialsWork(Jms jms) throws Exception {
        Connection connection = jms.closeLater(jms.factory().createConnection(ProviderUnderTest.USER,
                ProviderUnderTest.PASSWORD));
        roundTrip(jms, connection);
        try (JMSContext context = jms.factory().createContext(ProviderUnderTest.USER, ProviderUnderTest.PASSWORD)) {
            Queue queue = context.createQueue(jms.name("context"));
            context.createProducer().send(queue, "hello");
            assertEquals("hello", context.createConsumer(queue).receiveBody(String.class, Jms.RECEIVE_MS));
        }
    }

    @ProviderTest
    void aConnectionWithoutCredentialsStillWorks(Jms jms) throws Exception {
        roundTrip(jms, jms.closeLater(jms.factory().createConnection()));
    }

    @ProviderTest
    void aRefusedSendThrowsAndLeavesTheConnectionUsable(Jms jms) throws Exception {
        Connection writer = jms.closeLater(jms.factory().createConnection(ProviderUnderTest.USER,
                ProviderUnderTest.PASSWORD));
        Session writing = writer.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = writing.createQueue(jms.name("readers-queue"));
        writing.createProducer(queue).send(writing.createTextMessage("from a writer"));

        Connection reader = jms.closeLater(jms.factory().createConnection(ProviderUnderTest.READER,
                ProviderUnderTest.READER_PASSWORD));
        reader.start();
        Session session = reader.createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThrows(JMSSecurityException.class,
                () -> session.createProducer(queue).send(session.createTextMessage("from a reader")));
        MessageConsumer consumer = session.createConsumer(queue);
        assertEquals("from a writer", ((TextMessage) consumer.receive(Jms.RECEIVE_MS)).getText());
        assertNull(consumer.receive(500), "the refused message was not stored");
    }

    @ProviderTest
    void aRefusedSendFromAContextThrowsTheRuntimeException(Jms jms) {
        try (JMSContext context = jms.factory().createContext(ProviderUnderTest.READER,
                ProviderUnderTest.READER_PASSWORD)) {
            Queue queue = context.createQueue(jms.name("context-readers-queue"));
            assertThrows(JMSSecurityRuntimeException.class, () -> context.createProducer().send(queue, "refused"));
        }
    }

    @ProviderTest
    void aRefusedDurableSubscriptionThrows(Jms jms) throws Exception {
        Connection writer = jms.closeLater(jms.factory().createConnection(ProviderUnderTest.USER,
                ProviderUnderTest.PASSWORD));
        Topic topic = writer.createSession(false, Session.AUTO_ACKNOWLEDGE).createTopic(jms.name("readers-topic"));
        writer.createSession(false, Session.AUTO_ACKNOWLEDGE).createProducer(topic)
                .send(writer.createSession(false, Session.AUTO_ACKNOWLEDGE).createTextMessage("creates the topic"));
        Connection reader = jms.closeLater(jms.factory().createConnection(ProviderUnderTest.READER,
                ProviderUnderTest.READER_PASSWORD));
        reader.setClientID(jms.name("reader-client"));
        Session session = reader.createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThrows(JMSSecurityException.class, () -> session.createDurableSubscriber(topic, "refused"));
    }

    private static void roundTrip(Jms jms, Connection connection) throws Exception {
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(jms.name("round-trip"));
        MessageConsumer consumer = session.createConsumer(queue);
        session.createProducer(queue).send(session.createTextMessage("m"));
        assertEquals("m", ((TextMessage) consumer.receive(Jms.RECEIVE_MS)).getText());
    }
}
