package io.ramjet.provider.jndi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTemporaryQueue;
import io.ramjet.provider.destination.RamjetTopic;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XASession;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Hashtable;
import javax.naming.CompositeName;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;
import javax.naming.Reference;
import org.junit.jupiter.api.Test;

class JndiTest {

    private static Hashtable<String, String> environment(String url) {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, RamjetInitialContextFactory.class.getName());
        env.put(Context.PROVIDER_URL, url);
        env.put("connectionFactory.local", "");
        env.put("connectionFactory.explicit", "ramjet://other:1234?clientId=c1");
        env.put("queue.orders", "orders.physical");
        env.put("topic.prices", "prices.physical");
        return env;
    }

    @Test
    void bindsFactoriesQueuesAndTopicsFromProperties() throws Exception {
        Context context = new InitialContext(environment("ramjet://localhost:9876"));
        assertEquals("ramjet://localhost:9876", ((RamjetConnectionFactory) context.lookup("local")).getUrl());
        RamjetConnectionFactory explicit = (RamjetConnectionFactory) context.lookup("explicit");
        assertEquals("ramjet://other:1234?clientId=c1", explicit.getUrl());
        assertEquals("c1", explicit.getClientId());
        assertEquals("orders.physical", ((Queue) context.lookup("orders")).getQueueName());
        assertEquals("prices.physical", ((Topic) context.lookup("prices")).getTopicName());
        assertThrows(NameNotFoundException.class, () -> context.lookup("missing"));
    }

    @Test
    void withoutFactoryEntriesTheProviderUrlIsBoundAsConnectionFactory() throws Exception {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, RamjetInitialContextFactory.class.getName());
        env.put(Context.PROVIDER_URL, "ramjet://h:1");
        assertInstanceOf(ConnectionFactory.class, new InitialContext(env).lookup("ConnectionFactory"));
    }

    @Test
    void aFactoryRoundTripsThroughItsReferenceAndSerialization() throws Exception {
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://a:1,b:2");
        factory.setClientId("me");
        Reference reference = factory.getReference();
        assertEquals(factory, new RamjetObjectFactory().getObjectInstance(reference, null, null, null));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(factory);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(factory, in.readObject());
        }
    }

    @Test
    void anXaFactoryComesBackAsAnXaFactory() throws Exception {
        RamjetXAConnectionFactory factory = new RamjetXAConnectionFactory("ramjet://a:1");
        Object rebuilt = new RamjetObjectFactory().getObjectInstance(factory.getReference(), null, null, null);
        assertEquals(RamjetXAConnectionFactory.class, rebuilt.getClass());
        assertEquals(factory, rebuilt);
    }

    @Test
    void destinationsAreRebuiltFromReferences() throws Exception {
        Reference queue = new Reference(RamjetQueue.class.getName(), RamjetObjectFactory.class.getName(), null);
        queue.add(new javax.naming.StringRefAddr(RamjetObjectFactory.NAME, "q"));
        assertEquals(new RamjetQueue("q"), new RamjetObjectFactory().getObjectInstance(queue, null, null, null));
        Reference topic = new Reference(RamjetTopic.class.getName(), RamjetObjectFactory.class.getName(), null);
        topic.add(new javax.naming.StringRefAddr(RamjetObjectFactory.NAME, "t"));
        assertEquals(new RamjetTopic("t"), new RamjetObjectFactory().getObjectInstance(topic, null, null, null));
    }

    @Test
    void destinationsRoundTripThroughTheirOwnReferences() throws Exception {
        RamjetObjectFactory objects = new RamjetObjectFactory();
        assertEquals(RamjetDestination.OBJECT_FACTORY, RamjetObjectFactory.class.getName());
        RamjetQueue queue = new RamjetQueue("orders");
        RamjetTopic topic = new RamjetTopic("prices");
        assertEquals(queue, objects.getObjectInstance(queue.getReference(), null, null, null));
        assertEquals(topic, objects.getObjectInstance(topic.getReference(), null, null, null));
    }

    @Test
    void aTemporaryQueueCannotBeBound() {
        RamjetTemporaryQueue temporary = new RamjetTemporaryQueue("tmp-1", null);
        assertThrows(javax.naming.NamingException.class, temporary::getReference);
    }

    @Test
    void objectsLookedUpConnectSendAndReceive() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            Context context = new InitialContext(environment("ramjet://" + broker.nameServerAddress()));
            ConnectionFactory factory = (ConnectionFactory) context.lookup("local");
            Queue queue = (Queue) context.lookup("orders");
            try (Connection connection = factory.createConnection()) {
                connection.start();
                Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = session.createConsumer(queue);
                session.createProducer(queue).send(session.createTextMessage("via jndi"));
                assertEquals("via jndi", ((TextMessage) consumer.receive(5_000)).getText());
            }
        }
    }

    @Test
    void dynamicQueuesAndDynamicTopicsNameDestinationsWithoutEntries() throws Exception {
        Context context = new InitialContext(environment("ramjet://localhost:9876"));

        assertEquals(new RamjetQueue("orders"), context.lookup("dynamicQueues/orders"));
        assertEquals(new RamjetTopic("prices/eu"), context.lookup("dynamicTopics/prices/eu"));
        assertEquals(new RamjetQueue("orders"), context.lookup(new CompositeName("dynamicQueues/orders")));
        assertThrows(NameNotFoundException.class, () -> context.lookup("dynamicQueues/"));
        assertThrows(NameNotFoundException.class, () -> context.lookup("dynamicTopics"));
    }

    @Test
    void anEntryBoundUnderADynamicNameWins() throws Exception {
        Hashtable<String, String> env = environment("ramjet://localhost:9876");
        env.put("queue.dynamicQueues/orders", "orders.physical");

        assertEquals(new RamjetQueue("orders.physical"), new InitialContext(env).lookup("dynamicQueues/orders"));
    }

    @Test
    void typeXaCfOnAFactoryEntryGivesAnXaFactoryAndLeavesTheUrlWithoutIt() throws Exception {
        Hashtable<String, String> env = environment("ramjet://localhost:9876");
        env.put("connectionFactory.xa", "ramjet://h:1?type=XA_CF&clientId=c1");
        env.put("connectionFactory.queueXa", "ramjet://h:1?type=QUEUE_XA_CF");
        env.put("connectionFactory.topics", "ramjet://h:1?type=TOPIC_CF");
        Context context = new InitialContext(env);

        RamjetXAConnectionFactory xa = (RamjetXAConnectionFactory) context.lookup("xa");
        assertEquals("ramjet://h:1?clientId=c1", xa.getUrl());
        assertEquals("c1", xa.getClientId());
        assertEquals("ramjet://h:1", ((RamjetXAConnectionFactory) context.lookup("queueXa")).getUrl());
        assertFalse(context.lookup("topics") instanceof XAConnectionFactory);
        assertFalse(context.lookup("local") instanceof XAConnectionFactory);
    }

    @Test
    void anUnknownFactoryTypeIsRefusedNamingTheEntryAndTheAcceptedTypes() {
        Hashtable<String, String> env = environment("ramjet://localhost:9876");
        env.put("connectionFactory.bad", "ramjet://h:1?type=XA");

        ConfigurationException e = assertThrows(ConfigurationException.class, () -> new InitialContext(env));

        assertTrue(e.getMessage().contains("connectionFactory.bad"), e.getMessage());
        assertTrue(e.getMessage().contains("XA_CF"), e.getMessage());
    }

    @Test
    void anXaFactoryAndADynamicQueueFromJndiWorkAgainstABroker() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            Hashtable<String, String> env = environment("ramjet://" + broker.nameServerAddress());
            env.put("connectionFactory.xa", "ramjet://" + broker.nameServerAddress() + "?type=XA_CF");
            Context context = new InitialContext(env);
            Queue queue = (Queue) context.lookup("dynamicQueues/jndi.dynamic");
            XAConnectionFactory xa = (XAConnectionFactory) context.lookup("xa");
            try (XAConnection xaConnection = xa.createXAConnection()) {
                XASession session = xaConnection.createXASession();
                assertNotNull(session.getXAResource());
            }
            try (Connection connection = ((ConnectionFactory) context.lookup("local")).createConnection()) {
                connection.start();
                Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = session.createConsumer(queue);
                session.createProducer(queue).send(session.createTextMessage("dynamic"));
                assertEquals("dynamic", ((TextMessage) consumer.receive(5_000)).getText());
            }
        }
    }
}
