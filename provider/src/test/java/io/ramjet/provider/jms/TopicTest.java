package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopicTest extends BrokerTestSupport {

    @Test
    void everySubscriberGetsEveryMessage() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("fan-out"));
            MessageConsumer a = session.createConsumer(topic);
            MessageConsumer b = session.createConsumer(topic);
            MessageProducer producer = session.createProducer(topic);
            for (int i = 0; i < 10; i++) {
                producer.send(session.createTextMessage("m" + i));
            }
            for (MessageConsumer consumer : List.of(a, b)) {
                for (int i = 0; i < 10; i++) {
                    Message m = consumer.receive(TIMEOUT);
                    assertNotNull(m, "message " + i);
                    assertEquals("m" + i, ((TextMessage) m).getText());
                    assertEquals(topic, m.getJMSDestination());
                }
                assertNull(consumer.receive(SHORT));
            }
        }
    }

    @Test
    void aNonDurableSubscriberSeesOnlyWhatIsSentAfterIt() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("late"));
            MessageProducer producer = session.createProducer(topic);
            producer.send(session.createTextMessage("before"));
            MessageConsumer consumer = session.createConsumer(topic);
            producer.send(session.createTextMessage("after"));
            assertEquals("after", ((TextMessage) consumer.receive(TIMEOUT)).getText());
            assertNull(consumer.receive(SHORT));
        }
    }

    @Test
    void aDurableSubscriptionKeepsMessagesWhileItsConsumerIsClosed() throws Exception {
        String name = unique("durable");
        String topicName = unique("durable-topic");
        RamjetConnectionFactory factory = factory();
        factory.setClientId(unique("client"));
        try (Connection connection = factory.createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(topicName);
            MessageConsumer durable = session.createDurableSubscriber(topic, name);
            MessageProducer producer = session.createProducer(topic);
            producer.send(session.createTextMessage("one"));
            assertEquals("one", ((TextMessage) durable.receive(TIMEOUT)).getText());
            durable.close();
            producer.send(session.createTextMessage("two"));
            producer.send(session.createTextMessage("three"));
        }
        try (Connection connection = factory.createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(topicName);
            MessageConsumer durable = session.createDurableConsumer(topic, name);
            assertEquals("two", ((TextMessage) durable.receive(TIMEOUT)).getText());
            assertEquals("three", ((TextMessage) durable.receive(TIMEOUT)).getText());
            assertNull(durable.receive(SHORT));
            durable.close();
            session.unsubscribe(name);
            assertThrows(InvalidDestinationException.class, () -> session.unsubscribe(name));
        }
    }

    @Test
    void aDurableSubscriberNeedsAClientId() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("no-client-id"));
            assertThrows(jakarta.jms.IllegalStateException.class, () -> session.createDurableSubscriber(topic, "d"));
        }
    }

    @Test
    void sharedConsumersSplitTheSubscriptionsMessages() throws Exception {
        try (Connection connection = connect()) {
            Session s1 = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Session s2 = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = s1.createTopic(unique("shared"));
            String name = unique("shared-sub");
            MessageConsumer c1 = s1.createSharedConsumer(topic, name);
            MessageConsumer c2 = s2.createSharedConsumer(topic, name);
            MessageProducer producer = s1.createProducer(topic);
            for (int i = 0; i < 20; i++) {
                producer.send(s1.createTextMessage("m" + i));
            }
            Set<String> seen = new HashSet<>();
            for (MessageConsumer consumer : List.of(c1, c2)) {
                for (Message m = consumer.receive(SHORT); m != null; m = consumer.receive(SHORT)) {
                    seen.add(((TextMessage) m).getText());
                }
            }
            assertEquals(20, seen.size());
        }
    }

    @Test
    void sharedDurableConsumerKeepsMessagesAcrossConnections() throws Exception {
        String topicName = unique("shared-durable");
        String name = unique("sd");
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createSharedDurableConsumer(session.createTopic(topicName), name).close();
            session.createProducer(session.createTopic(topicName)).send(session.createTextMessage("kept"));
        }
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createSharedDurableConsumer(session.createTopic(topicName), name);
            assertEquals("kept", ((TextMessage) consumer.receive(TIMEOUT)).getText());
        }
    }

    @Test
    void noLocalSkipsTheConnectionsOwnMessages() throws Exception {
        try (Connection mine = connect(); Connection other = connect()) {
            Session session = mine.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("no-local"));
            MessageConsumer consumer = session.createConsumer(topic, null, true);
            session.createProducer(topic).send(session.createTextMessage("own"));
            Session otherSession = other.createSession(Session.AUTO_ACKNOWLEDGE);
            otherSession.createProducer(topic).send(otherSession.createTextMessage("foreign"));
            assertEquals("foreign", ((TextMessage) consumer.receive(TIMEOUT)).getText());
            assertNull(consumer.receive(SHORT));
        }
    }

    @Test
    void selectorOnATopicDropsWhatDoesNotMatch() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("topic-selector"));
            MessageConsumer consumer = session.createConsumer(topic, "JMSType = 'wanted' OR n > 5");
            MessageProducer producer = session.createProducer(topic);
            for (int n = 0; n < 8; n++) {
                Message m = session.createMessage();
                m.setIntProperty("n", n);
                m.setJMSType(n == 1 ? "wanted" : "other");
                producer.send(m);
            }
            for (int expected : new int[] {1, 6, 7}) {
                assertEquals(expected, consumer.receive(TIMEOUT).getIntProperty("n"));
            }
            assertNull(consumer.receive(SHORT));
        }
    }

    @Test
    void unsubscribingAnUnknownSubscriptionFails() throws JMSException {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            assertThrows(InvalidDestinationException.class, () -> session.unsubscribe(unique("nothing")));
        }
    }
}
