package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jms.JmsException;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.support.JmsUtils;
import org.springframework.jms.connection.UserCredentialsConnectionFactoryAdapter;

/**
 * Each cause the specification names an exception for, provoked against a real broker (a users
 * file, a permissions file, declared destinations only), raises that exception from the classic
 * API and its unchecked twin from {@link JMSContext}; Spring's {@link JmsTemplate} translates
 * each into its own type of the same name instead of an uncategorized one.
 */
class JmsExceptionTypesTest {

    private static final String PASSWORD = "secret";
    private static final String ORDERS = "orders";
    private static final String AUDIT = "audit";
    private static final String NEWS = "news";
    /** The brokers' record limit is 4 MiB: a message of 5 MiB sent whole is one it cannot take. */
    private static final int OVER_RECORD_LIMIT = 5 * 1024 * 1024;

    @TempDir
    static Path dir;

    private static EmbeddedBroker broker;

    private Connection connection;
    private JMSContext context;

    @BeforeAll
    static void start() throws IOException {
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"), "alice = " + hash + "\nbob = " + hash + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "staff = alice, bob\nclerks = alice\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"), String.join("\n",
                "send orders = staff", "consume orders = staff", "browse orders = staff",
                "createDestination nosuch = staff",
                "send news = staff", "consume news = staff", "createDurableSubscription news = staff",
                "deleteDurableSubscription news = staff",
                "send audit = clerks", "consume audit = clerks", ""));
        broker = EmbeddedBroker.start(c -> c.withAutoCreateDestinations(false)
                .withDestinations(List.of(ORDERS, AUDIT), List.of(NEWS))
                .withSecurity(users, false)
                .withAccess(new AccessConfig(roles, permissions, null, AccessConfig.DEFAULT_JAAS_ENTRY, Set.of())));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @AfterEach
    void close() throws JMSException {
        if (connection != null) {
            connection.close();
        }
        if (context != null) {
            context.close();
        }
    }

    private static RamjetConnectionFactory factory(String options) {
        return new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress() + options);
    }

    private Session session(String user) throws JMSException {
        connection = factory("").createConnection(user, PASSWORD);
        connection.start();
        return connection.createSession(Session.AUTO_ACKNOWLEDGE);
    }

    private JMSContext context(String user) {
        context = factory("").createContext(user, PASSWORD);
        return context;
    }

    private static JmsTemplate template(String user) {
        return template(factory(""), user, PASSWORD);
    }

    private static JmsTemplate template(RamjetConnectionFactory factory, String user, String password) {
        UserCredentialsConnectionFactoryAdapter credentials = new UserCredentialsConnectionFactoryAdapter();
        credentials.setTargetConnectionFactory(factory);
        credentials.setUsername(user);
        credentials.setPassword(password);
        JmsTemplate template = new JmsTemplate(credentials);
        template.setReceiveTimeout(100);
        return template;
    }

    @Test
    void aDestinationTheBrokerDoesNotHaveIsAnInvalidDestination() throws JMSException {
        Session session = session("alice");
        assertThrows(InvalidDestinationException.class,
                () -> session.createProducer(session.createQueue("nosuch")).send(session.createTextMessage("x")));
        assertThrows(InvalidDestinationException.class, () -> session.createConsumer(session.createQueue("nosuch")));
        JMSContext context = context("alice");
        assertThrows(InvalidDestinationRuntimeException.class,
                () -> context.createProducer().send(context.createQueue("nosuch"), "x"));
        assertThrows(org.springframework.jms.InvalidDestinationException.class,
                () -> template("alice").convertAndSend("nosuch", "x"));
    }

    @Test
    void anOperationTheUserMayNotDoIsASecurityFailure() throws JMSException {
        Session session = session("bob");
        assertThrows(JMSSecurityException.class,
                () -> session.createProducer(session.createQueue(AUDIT)).send(session.createTextMessage("x")));
        assertThrows(JMSSecurityException.class, () -> session.createConsumer(session.createQueue(AUDIT)));
        JMSContext context = context("bob");
        assertThrows(JMSSecurityRuntimeException.class,
                () -> context.createProducer().send(context.createQueue(AUDIT), "x"));
        assertThrows(org.springframework.jms.JmsSecurityException.class,
                () -> template("bob").convertAndSend(AUDIT, "x"));
        assertThrows(org.springframework.jms.JmsSecurityException.class,
                () -> template(factory(""), "alice", "wrong").convertAndSend(ORDERS, "x"));
    }

    @Test
    void aSelectorThatDoesNotParseIsAnInvalidSelector() throws JMSException {
        Session session = session("alice");
        assertThrows(InvalidSelectorException.class, () -> session.createConsumer(session.createQueue(ORDERS), "a = ("));
        assertThrows(InvalidSelectorException.class, () -> session.createBrowser(session.createQueue(ORDERS), "a = ("));
        JMSContext context = context("alice");
        assertThrows(InvalidSelectorRuntimeException.class, () -> context.createConsumer(context.createQueue(ORDERS), "a = ("));
        assertThrows(org.springframework.jms.InvalidSelectorException.class,
                () -> template("alice").receiveSelected(ORDERS, "a = ("));
    }

    @Test
    void aMessageOverTheBrokersSizeLimitIsAnInvalidMessage() throws JMSException {
        connection = factory("?largeMessageSize=" + Integer.MAX_VALUE).createConnection("alice", PASSWORD);
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue(ORDERS));
        BytesMessage large = session.createBytesMessage();
        large.writeBytes(new byte[OVER_RECORD_LIMIT]);
        MessageFormatException refused = assertThrows(MessageFormatException.class, () -> producer.send(large));
        assertTrue(refused.getMessage().contains("bytes"), refused.getMessage());
        context = factory("?largeMessageSize=" + Integer.MAX_VALUE).createContext("alice", PASSWORD);
        assertThrows(MessageFormatRuntimeException.class,
                () -> context.createProducer().send(context.createQueue(ORDERS), new byte[OVER_RECORD_LIMIT]));
    }

    @Test
    void unsubscribingADurableSubscriptionInUseIsAnIllegalState() throws JMSException {
        connection = factory("").createConnection("alice", PASSWORD);
        connection.setClientID("types-" + System.nanoTime());
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        Topic news = session.createTopic(NEWS);
        session.createDurableConsumer(news, "in-use");
        assertThrows(IllegalStateException.class, () -> session.unsubscribe("in-use"));
        assertThrows(InvalidDestinationException.class, () -> session.unsubscribe("never-made"));
        JMSContext context = context("alice");
        assertThrows(IllegalStateRuntimeException.class,
                () -> context.createDurableConsumer(context.createTopic(NEWS), "no-client-id"));
    }

    @Test
    void aSendWhileTheBrokerIsDownIsAResourceAllocationFailureThatSpringCategorizes() throws Exception {
        try (EmbeddedBroker gone = EmbeddedBroker.start()) {
            String nameServer = gone.nameServerAddress();
            RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer
                    + "?requestTimeout=500&failoverTimeout=500");
            connection = factory.createConnection();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue("down"));
            producer.send(session.createTextMessage("before"));
            context = factory.createContext();
            context.createProducer().send(context.createQueue("down"), "before");
            gone.close();

            ResourceAllocationException refused = assertThrows(ResourceAllocationException.class,
                    () -> producer.send(session.createTextMessage("x")));
            assertInstanceOf(org.springframework.jms.ResourceAllocationException.class,
                    JmsUtils.convertJmsAccessException(refused));
            assertThrows(ResourceAllocationRuntimeException.class,
                    () -> context.createProducer().send(context.createQueue("down"), "x"));
            JmsException translated = assertThrows(org.springframework.jms.ResourceAllocationException.class,
                    () -> new JmsTemplate(factory).convertAndSend("down", "x"));
            assertTrue(translated.getMessage().contains(nameServer), translated.getMessage());
        }
    }
}
