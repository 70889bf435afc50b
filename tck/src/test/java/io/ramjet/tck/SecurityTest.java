package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

/**
 * Credentials at connection time: {@code ConnectionFactory.createConnection(user, password)}
 * throws {@code JMSSecurityException} "if client authentication fails due to an invalid user name
 * or password", {@code createContext(user, password)} throws {@code JMSSecurityRuntimeException};
 * known credentials and no credentials (a broker that admits anonymous connections) work.
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

    private static void roundTrip(Jms jms, Connection connection) throws Exception {
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(jms.name("round-trip"));
        MessageConsumer consumer = session.createConsumer(queue);
        session.createProducer(queue).send(session.createTextMessage("m"));
        assertEquals("m", ((TextMessage) consumer.receive(Jms.RECEIVE_MS)).getText());
    }
}
