package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Queue browsers (section 4.1.3 of QueueBrowser's contract): they look, they never take. */
class BrowserTest {

    private static void send(Session s, Queue q, int count) throws JMSException {
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < count; i++) {
            p.send(s.createTextMessage("m" + i));
        }
    }

    private static List<String> browse(Session s, Queue q) throws JMSException {
        List<String> seen = new ArrayList<>();
        for (Object m : Collections.list(s.createBrowser(q).getEnumeration())) {
            seen.add(((TextMessage) m).getText());
        }
        return seen;
    }

    private static List<String> names(int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add("m" + i);
        }
        return out;
    }

    @ProviderTest
    void aLongBrowseSeesEveryMessageInSendOrder(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "long");
        send(s, q, 300);
        assertEquals(names(300), browse(s, q));
    }

    @ProviderTest
    void browsingTwiceSeesTheSameAndCountsNoDelivery(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "twice");
        send(s, q, 5);
        assertEquals(names(5), browse(s, q));
        assertEquals(names(5), browse(s, q));
        MessageConsumer c = s.createConsumer(q);
        for (int i = 0; i < 5; i++) {
            Message m = c.receive(Jms.RECEIVE_MS);
            assertNotNull(m);
            assertFalse(m.getJMSRedelivered(), "a browse is not a delivery");
            assertEquals(1, m.getIntProperty("JMSXDeliveryCount"));
        }
        assertNull(c.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void anEmptyQueueBrowsesEmpty(Jms jms) throws Exception {
        Session s = jms.session();
        QueueBrowser b = s.createBrowser(jms.queue(s, "empty"));
        Enumeration<?> e = b.getEnumeration();
        assertFalse(e.hasMoreElements());
    }

    @ProviderTest
    void browsingDoesNotDisturbAConsumerOfAnotherConnection(Jms jms) throws Exception {
        int count = 100;
        Session producing = jms.session();
        Queue q = jms.queue(producing, "busy");
        send(producing, q, count);
        ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> redelivered = new ConcurrentLinkedQueue<>();
        CountDownLatch all = new CountDownLatch(count);
        Session consuming = jms.session();
        consuming.createConsumer(q).setMessageListener(m -> {
            try {
                received.add(((TextMessage) m).getText());
                if (m.getJMSRedelivered()) {
                    redelivered.add(((TextMessage) m).getText());
                }
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
            all.countDown();
        });
        for (int i = 0; i < 20 && all.getCount() > 0; i++) {
            browse(producing, q);
        }
        assertTrue(all.await(Jms.RECEIVE_MS, TimeUnit.MILLISECONDS), "the consumer got every message");
        assertEquals(names(count), new ArrayList<>(received), "once each, in order");
        assertEquals(List.of(), new ArrayList<>(redelivered));
    }
}
