package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueTest extends BrokerTestSupport {

    @Test
    void textMessageRoundTripSetsHeaders() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("text"));
            MessageProducer producer = session.createProducer(queue);
            MessageConsumer consumer = session.createConsumer(queue);
            TextMessage sent = session.createTextMessage("hello");
            sent.setStringProperty("colour", "red");
            producer.send(sent);
            assertTrue(sent.getJMSMessageID().startsWith("ID:"));
            assertTrue(sent.getJMSTimestamp() > 0);
            assertEquals(DeliveryMode.PERSISTENT, sent.getJMSDeliveryMode());
            assertEquals(queue, sent.getJMSDestination());

            TextMessage received = (TextMessage) consumer.receive(TIMEOUT);
            assertNotNull(received);
            assertEquals("hello", received.getText());
            assertEquals("red", received.getStringProperty("colour"));
            assertEquals(sent.getJMSMessageID(), received.getJMSMessageID());
            assertEquals(queue, received.getJMSDestination());
            assertFalse(received.getJMSRedelivered());
            assertEquals(1, received.getIntProperty("JMSXDeliveryCount"));
            assertNull(consumer.receive(SHORT), "acknowledged: not delivered again");
        }
    }

    @Test
    void everyMessageTypeRoundTrips() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("types"));
            MessageProducer producer = session.createProducer(queue);
            MessageConsumer consumer = session.createConsumer(queue);

            BytesMessage bytes = session.createBytesMessage();
            bytes.writeBytes(new byte[] {1, 2, 3});
            MapMessage map = session.createMapMessage();
            map.setInt("n", 42);
            map.setString("s", "x");
            StreamMessage stream = session.createStreamMessage();
            stream.writeLong(7L);
            stream.writeString("y");
            ObjectMessage object = session.createObjectMessage(new ArrayList<>(List.of("a", "b")));
            Message plain = session.createMessage();
            plain.setBooleanProperty("plain", true);
            for (Message m : List.of(bytes, map, stream, object, plain)) {
                producer.send(m);
            }

            BytesMessage b = (BytesMessage) consumer.receive(TIMEOUT);
            byte[] read = new byte[3];
            assertEquals(3, b.readBytes(read));
            assertArrayEquals(new byte[] {1, 2, 3}, read);
            MapMessage m = (MapMessage) consumer.receive(TIMEOUT);
            assertEquals(42, m.getInt("n"));
            assertEquals("x", m.getString("s"));
            StreamMessage s = (StreamMessage) consumer.receive(TIMEOUT);
            assertEquals(7L, s.readLong());
            assertEquals("y", s.readString());
            ObjectMessage o = (ObjectMessage) consumer.receive(TIMEOUT);
            assertEquals(List.of("a", "b"), o.getObject());
            Message p = consumer.receive(TIMEOUT);
            assertTrue(p.getBooleanProperty("plain"));
        }
    }

    @Test
    void oneSessionsMessagesArriveInOrder() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("order"));
            MessageProducer producer = session.createProducer(queue);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < 200; i++) {
                TextMessage m = session.createTextMessage();
                m.setIntProperty("seq", i);
                producer.send(m);
            }
            MessageConsumer consumer = session.createConsumer(queue);
            for (int i = 0; i < 200; i++) {
                Message m = consumer.receive(TIMEOUT);
                assertNotNull(m, "message " + i);
                assertEquals(i, m.getIntProperty("seq"));
            }
        }
    }

    @Test
    void competingConsumersShareTheMessagesWithoutDuplicates() throws Exception {
        try (Connection connection = connect()) {
            Session producing = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = producing.createQueue(unique("competing"));
            Session s1 = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Session s2 = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer c1 = s1.createConsumer(queue);
            MessageConsumer c2 = s2.createConsumer(queue);
            MessageProducer producer = producing.createProducer(queue);
            int count = 100;
            for (int i = 0; i < count; i++) {
                producer.send(producing.createTextMessage(Integer.toString(i)));
            }
            Set<String> seen = new HashSet<>();
            for (MessageConsumer consumer : List.of(c1, c2)) {
                for (Message m = consumer.receive(SHORT); m != null; m = consumer.receive(SHORT)) {
                    assertTrue(seen.add(((TextMessage) m).getText()), "duplicate " + ((TextMessage) m).getText());
                }
            }
            assertEquals(count, seen.size());
            assertNull(c1.receiveNoWait());
            assertNull(c2.receive(SHORT));
        }
    }

    @Test
    void selectorFiltersOnAQueueAndLeavesTheRestForOthers() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("selector"));
            MessageConsumer red = session.createConsumer(queue, "colour = 'red' AND size > 2");
            MessageProducer producer = session.createProducer(queue);
            for (String colour : List.of("blue", "red", "red", "green")) {
                for (int size = 1; size <= 3; size++) {
                    Message m = session.createMessage();
                    m.setStringProperty("colour", colour);
                    m.setIntProperty("size", size);
                    producer.send(m);
                }
            }
            for (int i = 0; i < 2; i++) {
                Message m = red.receive(TIMEOUT);
                assertNotNull(m);
                assertEquals("red", m.getStringProperty("colour"));
                assertEquals(3, m.getIntProperty("size"));
            }
            assertNull(red.receive(SHORT));
            MessageConsumer all = session.createConsumer(queue);
            int rest = 0;
            while (all.receive(SHORT * 2) != null) {
                rest++;
            }
            assertEquals(10, rest);
        }
    }

    @Test
    void clientAcknowledgeAndRecoverRedeliverWithJmsRedelivered() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("client-ack"));
            MessageProducer producer = session.createProducer(queue);
            MessageConsumer consumer = session.createConsumer(queue);
            for (int i = 0; i < 3; i++) {
                producer.send(session.createTextMessage("m" + i));
            }
            Set<String> first = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                Message m = consumer.receive(TIMEOUT);
                assertFalse(m.getJMSRedelivered());
                first.add(((TextMessage) m).getText());
            }
            session.recover();
            Set<String> again = new HashSet<>();
            Message last = null;
            for (int i = 0; i < 3; i++) {
                last = consumer.receive(TIMEOUT);
                assertNotNull(last, "redelivery " + i);
                assertTrue(last.getJMSRedelivered());
                assertEquals(2, last.getIntProperty("JMSXDeliveryCount"));
                again.add(((TextMessage) last).getText());
            }
            assertEquals(first, again);
            last.acknowledge();
            session.recover();
            assertNull(consumer.receive(SHORT), "acknowledge() acked every consumed message");
        }
    }

    @Test
    void closingAConsumerReturnsItsUnseenMessagesUncounted() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("close-consumer"));
            MessageProducer producer = session.createProducer(queue);
            MessageConsumer first = session.createConsumer(queue);
            for (int i = 0; i < 5; i++) {
                producer.send(session.createTextMessage("m" + i));
            }
            assertNotNull(first.receive(TIMEOUT));
            first.close();
            MessageConsumer second = session.createConsumer(queue);
            for (int i = 1; i < 5; i++) {
                Message m = second.receive(TIMEOUT);
                assertNotNull(m, "message " + i);
                assertEquals("m" + i, ((TextMessage) m).getText());
                assertFalse(m.getJMSRedelivered(), "prefetched but never seen: not a delivery");
            }
        }
    }
}
