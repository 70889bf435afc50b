package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The browser over the broker's BROWSE command: pages, selectors, and no effect on consumers. */
class QueueBrowserTest extends BrokerTestSupport {

    private static List<String> texts(Enumeration<?> e) throws Exception {
        List<String> out = new ArrayList<>();
        for (Object m : Collections.list(e)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    private static void send(Session session, Queue queue, int count) throws Exception {
        MessageProducer producer = session.createProducer(queue);
        for (int i = 0; i < count; i++) {
            TextMessage m = session.createTextMessage("m" + i);
            m.setIntProperty("n", i);
            producer.send(m);
        }
    }

    private static List<String> expected(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("m" + i);
        }
        return out;
    }

    @Test
    void aBrowseLongerThanOnePageSeesEveryMessageInOrder() throws Exception {
        int count = RamjetQueueBrowser.PAGE * 3 + 5;
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("pages"));
            send(session, queue, count);
            assertEquals(expected(0, count), texts(session.createBrowser(queue).getEnumeration()),
                    "one producer session sends to one message queue, so the browse keeps its order");
        }
    }

    @Test
    void aSelectorIsHonouredAndBrowsedMessagesAreNotRedelivered() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("selected"));
            send(session, queue, 10);
            QueueBrowser browser = session.createBrowser(queue, "n >= 7 OR n = 2");
            List<?> seen = Collections.list(browser.getEnumeration());
            assertEquals(List.of("m2", "m7", "m8", "m9"), texts(Collections.enumeration(seen)));
            for (Object m : seen) {
                assertFalse(((Message) m).getJMSRedelivered());
                assertEquals(1, ((Message) m).getIntProperty("JMSXDeliveryCount"));
            }
        }
    }

    @Test
    void browsingDoesNotHideMessagesFromAConsumerNorCountDeliveries() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("undisturbed"));
            send(session, queue, 6);
            MessageConsumer consumer = session.createConsumer(queue);
            Message first = consumer.receive(TIMEOUT);
            assertNotNull(first);
            assertEquals(expected(0, 6), texts(session.createBrowser(queue).getEnumeration()),
                    "a message delivered but not acknowledged is still on the queue");
            for (int i = 1; i < 6; i++) {
                Message m = consumer.receive(TIMEOUT);
                assertNotNull(m, "message " + i + " still offered while browsing");
                assertFalse(m.getJMSRedelivered(), "browsing is not a delivery");
            }
            assertNull(consumer.receive(SHORT));
            first.acknowledge();
            assertEquals(List.of(), texts(session.createBrowser(queue).getEnumeration()),
                    "acknowledged messages are gone from the browse");
        }
    }

    @Test
    void browsingWhileAnotherConnectionConsumesLosesNothingAndDuplicatesNothing() throws Exception {
        int count = 200;
        try (Connection producing = connect(); Connection consuming = connect()) {
            Session session = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("concurrent"));
            send(session, queue, count);
            MessageConsumer consumer = consuming.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            List<String> received = new ArrayList<>();
            Enumeration<?> browse = session.createBrowser(queue).getEnumeration();
            while (received.size() < count) {
                if (browse.hasMoreElements()) {
                    browse.nextElement();
                } else {
                    browse = session.createBrowser(queue).getEnumeration();
                }
                Message m = consumer.receive(TIMEOUT);
                assertNotNull(m, "message " + received.size() + " arrives");
                assertFalse(m.getJMSRedelivered());
                received.add(((TextMessage) m).getText());
            }
            assertEquals(expected(0, count), received);
            assertNull(consumer.receive(SHORT));
        }
    }

    @Test
    void anEmptyOrUnknownQueueBrowsesEmpty() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Enumeration<?> e = session.createBrowser(session.createQueue(unique("nothing"))).getEnumeration();
            assertFalse(e.hasMoreElements());
            assertTrue(Collections.list(e).isEmpty());
        }
    }
}
