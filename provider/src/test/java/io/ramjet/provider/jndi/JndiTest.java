package io.ramjet.provider.jndi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Hashtable;
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
}
