package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.util.List;
import org.junit.jupiter.api.Test;

class DurableTopicTest extends EmbeddedBrokerTest {

    @Test
    void reconnectingSubscriberGetsWhatWasPublishedWhileItWasAway() throws Exception {
        DurableTopic.Received received = DurableTopic.run(factory, "durable.prices", "client-a", "sub-a");

        assertEquals(List.of("price 1"), received.beforeDisconnect());
        assertEquals(List.of("price 2", "price 3"), received.afterReconnect());
    }

    @Test
    void unsubscribeDeletesTheSubscription() throws Exception {
        DurableTopic.run(factory, "durable.deleted", "client-b", "sub-b");

        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic("durable.deleted");
            session.createProducer(topic).send(session.createTextMessage("published with no subscription"));
        }
        try (Connection connection = factory.createConnection()) {
            connection.setClientID("client-b");
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createDurableConsumer(session.createTopic("durable.deleted"), "sub-b");
            connection.start();
            assertNull(consumer.receive(300), "a new subscription of the same name must start empty");
            consumer.close();
            session.unsubscribe("sub-b");
        }
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        DurableTopic.main(new String[] {url()});
    }
}
