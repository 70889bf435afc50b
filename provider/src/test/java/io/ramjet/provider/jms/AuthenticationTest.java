package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials against two brokers that admit authenticated connections only: bad ones are refused
 * at creation with the JMS security exceptions, good ones work on every broker, including one
 * that restarts under the connection.
 */
class AuthenticationTest {

    private static final long TIMEOUT = 10_000;

    @TempDir
    static Path dir;

    private static EmbeddedCluster cluster;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(2, c -> c.withSecurity(usersFile(dir), false));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** A users file with alice, password wonderland. */
    static Path usersFile(Path dir) {
        Path file = dir.resolve("users.properties");
        try {
            Files.writeString(file, "alice = " + PasswordHash.of("wonderland".toCharArray()).encoded() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private static RamjetXAConnectionFactory factory() {
        return new RamjetXAConnectionFactory("ramjet://" + cluster.nameServerAddress());
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aWrongPasswordIsRefusedByEveryKindOfConnection() {
        RamjetXAConnectionFactory factory = factory();
        assertThrows(JMSSecurityException.class, () -> factory.createConnection("alice", "looking-glass"));
        assertThrows(JMSSecurityException.class, () -> factory.createQueueConnection("alice", "looking-glass"));
        assertThrows(JMSSecurityException.class, () -> factory.createTopicConnection("alice", "looking-glass"));
        assertThrows(JMSSecurityException.class, () -> factory.createXAConnection("alice", "looking-glass"));
    }

    @Test
    void anUnknownUserIsRefused() {
        assertThrows(JMSSecurityException.class, () -> factory().createConnection("bob", "wonderland"));
        assertThrows(JMSSecurityException.class, () -> factory().createConnection("bob", null));
    }

    @Test
    void badCredentialsRefuseAContext() {
        RamjetXAConnectionFactory factory = factory();
        assertThrows(JMSSecurityRuntimeException.class, () -> factory.createContext("alice", "looking-glass"));
        assertThrows(JMSSecurityRuntimeException.class,
                () -> factory.createContext("alice", "looking-glass", JMSContext.CLIENT_ACKNOWLEDGE));
        assertThrows(JMSSecurityRuntimeException.class, () -> factory.createXAContext("bob", "wonderland"));
    }

    @Test
    void goodCredentialsSendAndReceiveOnEveryBroker() throws JMSException {
        try (Connection connection = factory().createConnection("alice", "wonderland")) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("authenticated"));
            MessageConsumer consumer = session.createConsumer(queue);
            for (int i = 0; i < 4; i++) {
                session.createProducer(queue).send(session.createTextMessage("m" + i));
            }
            for (int i = 0; i < 4; i++) {
                assertNotNull(consumer.receive(TIMEOUT), "message " + i);
            }
        }
    }

    @Test
    void goodCredentialsWorkInAContextWithAClientId() {
        RamjetConnectionFactory factory = factory();
        factory.setClientId(unique("app"));
        try (JMSContext context = factory.createContext("alice", "wonderland")) {
            Queue queue = context.createQueue(unique("context"));
            context.createProducer().send(queue, "hello");
            assertEquals("hello", context.createConsumer(queue).receiveBody(String.class, TIMEOUT));
        }
    }

    @Test
    void withoutCredentialsABrokerThatRefusesAnonymousConnectionsRefusesTheFirstCommand() throws JMSException {
        try (Connection connection = factory().createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("anonymous"));
            assertThrows(JMSSecurityException.class, () -> session.createProducer(queue)
                    .send(session.createTextMessage("m")));
        }
    }

    @Test
    void aBrokerThatRestartsIsAuthenticatedAgainBeforeTheConnectionUsesIt() throws Exception {
        try (EmbeddedCluster single = EmbeddedCluster.start(1, c -> c.withSecurity(usersFile(dir), false));
             Connection connection = new RamjetConnectionFactory("ramjet://" + single.nameServerAddress())
                     .createConnection("alice", "wonderland")) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("restart"));
            session.createProducer(queue).send(session.createTextMessage("before"));
            int port = single.broker(0).port();
            single.stopBroker(0);
            single.restartBroker(0, port);
            sendUntilAccepted(session, queue, "after");
            MessageConsumer consumer = session.createConsumer(queue);
            assertEquals("before", ((TextMessage) consumer.receive(TIMEOUT)).getText());
            assertEquals("after", ((TextMessage) consumer.receive(TIMEOUT)).getText());
        }
    }

    /** The first send after a restart may meet the old, broken transport; a refusal would repeat and fail the test. */
    private static void sendUntilAccepted(Session session, Queue queue, String text) {
        await("the send accepted").atMost(Duration.ofMillis(TIMEOUT)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    try {
                        session.createProducer(queue).send(session.createTextMessage(text));
                        return true;
                    } catch (JMSSecurityException refused) {
                        throw refused;
                    } catch (JMSException transport) {
                        return false;
                    }
                });
    }
}
