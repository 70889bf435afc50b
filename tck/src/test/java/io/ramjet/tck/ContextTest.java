package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simplified API, asynchronous send, message listeners, delivery delay, time to live and
 * priority (sections 7, 4.7, 4.8, 4.13, 6.2.12).
 */
class ContextTest {

    @ProviderTest
    void receiveBodyGivesEachBodyType(Jms jms) {
        JMSContext ctx = jms.context();
        Queue q = ctx.createQueue(jms.name("bodies"));
        JMSProducer p = ctx.createProducer();
        p.send(q, "text");
        p.send(q, new byte[] {1, 2});
        p.send(q, Map.of("k", 1));
        p.send(q, (java.io.Serializable) List.of("o"));
        JMSConsumer c = ctx.createConsumer(q);
        assertEquals("text", c.receiveBody(String.class, Jms.RECEIVE_MS));
        assertArrayEquals(new byte[] {1, 2}, c.receiveBody(byte[].class, Jms.RECEIVE_MS));
        assertEquals(Map.of("k", 1), c.receiveBody(Map.class, Jms.RECEIVE_MS));
        assertEquals(List.of("o"), c.receiveBody(List.class, Jms.RECEIVE_MS));
        assertNull(c.receiveBodyNoWait(String.class));
    }

    @ProviderTest
    void clientIdMayBeSetRightAfterTheContextIsCreatedButNotAfterUse(Jms jms) {
        JMSContext ctx = jms.closeLater(jms.factory().createContext());
        String id = jms.name("ctx-id");
        ctx.setClientID(id);
        assertEquals(id, ctx.getClientID());
        JMSContext used = jms.closeLater(jms.factory().createContext());
        used.createProducer().send(used.createQueue(jms.name("ctx-used")), "x");
        assertThrows(jakarta.jms.IllegalStateRuntimeException.class, () -> used.setClientID(jms.name("late")));
    }

    @ProviderTest
    void receiveBodyOfTheWrongTypeLeavesTheMessage(Jms jms) {
        jms.skipOnArtemis("Artemis deviation: after a MessageFormatRuntimeException from receiveBody in AUTO mode the"
                + " message is not delivered again, where the JMSConsumer.receiveBody javadoc says it is");
        JMSContext ctx = jms.context();
        Queue q = ctx.createQueue(jms.name("wrong"));
        ctx.createProducer().send(q, "text");
        JMSConsumer c = ctx.createConsumer(q);
        assertThrows(MessageFormatRuntimeException.class, () -> c.receiveBody(byte[].class, Jms.RECEIVE_MS));
        assertEquals("text", c.receiveBody(String.class, Jms.RECEIVE_MS));
    }

    @ProviderTest
    void producerPropertiesAndHeadersGoOnEveryMessage(Jms jms) throws Exception {
        JMSContext ctx = jms.context();
        Queue q = ctx.createQueue(jms.name("fluent"));
        Queue reply = ctx.createQueue(jms.name("reply"));
        ctx.createProducer()
                .setProperty("i", 7).setProperty("s", "x").setProperty("b", true)
                .setJMSType("t").setJMSCorrelationID("c").setJMSReplyTo(reply)
                .setPriority(6).setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                .send(q, "m");
        Message m = ctx.createConsumer(q).receive(Jms.RECEIVE_MS);
        assertEquals(7, m.getIntProperty("i"));
        assertEquals("x", m.getStringProperty("s"));
        assertTrue(m.getBooleanProperty("b"));
        assertEquals("t", m.getJMSType());
        assertEquals("c", m.getJMSCorrelationID());
        assertEquals(6, m.getJMSPriority());
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
        assertEquals(reply.getQueueName(), ((Queue) m.getJMSReplyTo()).getQueueName());
    }

    @ProviderTest
    void producerPropertyConversionsFollowTheTable(Jms jms) {
        JMSProducer p = jms.context().createProducer().setProperty("i", 7);
        assertEquals(7L, p.getLongProperty("i"));
        assertEquals("7", p.getStringProperty("i"));
        assertThrows(MessageFormatRuntimeException.class, () -> p.getShortProperty("i"));
        assertTrue(p.propertyExists("i"));
        p.clearProperties();
        assertTrue(p.getPropertyNames().isEmpty());
    }

    @ProviderTest
    void contextStartsOnFirstConsumer(Jms jms) {
        JMSContext ctx = jms.context();
        Queue q = ctx.createQueue(jms.name("autostart"));
        ctx.createProducer().send(q, "x");
        assertEquals("x", ctx.createConsumer(q).receiveBody(String.class, Jms.RECEIVE_MS));
    }

    @ProviderTest
    void contextsMadeFromAContextShareItsConnection(Jms jms) {
        JMSContext ctx = jms.context();
        JMSContext child = ctx.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        jms.closeLater(child);
        assertEquals(JMSContext.CLIENT_ACKNOWLEDGE, child.getSessionMode());
        Queue q = child.createQueue(jms.name("child"));
        ctx.createProducer().send(q, "y");
        assertEquals("y", child.createConsumer(q).receiveBody(String.class, Jms.RECEIVE_MS));
    }

    @ProviderTest
    void asyncSendCallsBackInOrder(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "async");
        MessageProducer p = s.createProducer(q);
        int n = 50;
        List<String> completed = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(n);
        CompletionListener listener = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                try {
                    completed.add(((TextMessage) message).getText());
                } catch (Exception e) {
                    completed.add("error " + e);
                }
                done.countDown();
            }

            @Override
            public void onException(Message message, Exception exception) {
                completed.add("failed " + exception);
                done.countDown();
            }
        };
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            p.send(s.createTextMessage("m" + i), listener);
            expected.add("m" + i);
        }
        assertTrue(done.await(Jms.RECEIVE_MS, TimeUnit.MILLISECONDS));
        assertEquals(expected, completed);
        assertNotNull(jms.session().createConsumer(q).receive(Jms.RECEIVE_MS));
    }

    @ProviderTest
    void asyncSendThroughJmsProducer(Jms jms) throws Exception {
        JMSContext ctx = jms.context();
        Queue q = ctx.createQueue(jms.name("asyncctx"));
        CountDownLatch done = new CountDownLatch(1);
        ctx.createProducer().setAsync(new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                done.countDown();
            }

            @Override
            public void onException(Message message, Exception exception) {
            }
        }).send(q, "a");
        assertTrue(done.await(Jms.RECEIVE_MS, TimeUnit.MILLISECONDS));
        assertEquals("a", ctx.createConsumer(q).receiveBody(String.class, Jms.RECEIVE_MS));
    }

    @ProviderTest
    void listenerReceivesMessagesSeriallyInOrder(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "listener");
        int n = 100;
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger maxConcurrent = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        Session listening = jms.session();
        listening.createConsumer(q).setMessageListener(m -> {
            maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            try {
                got.add(((TextMessage) m).getText());
            } catch (Exception e) {
                got.add("error");
            }
            concurrent.decrementAndGet();
            done.countDown();
        });
        MessageProducer p = s.createProducer(q);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            p.send(s.createTextMessage("m" + i));
            expected.add("m" + i);
        }
        assertTrue(done.await(Jms.RECEIVE_MS, TimeUnit.MILLISECONDS));
        assertEquals(expected, got);
        assertEquals(1, maxConcurrent.get());
    }

    @ProviderTest
    void delayedMessageIsNotDeliveredBeforeItsTime(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "delay");
        MessageProducer p = s.createProducer(q);
        p.setDeliveryDelay(700);
        long sent = System.currentTimeMillis();
        p.send(s.createTextMessage("later"));
        MessageConsumer c = s.createConsumer(q);
        Message m = c.receive(Jms.RECEIVE_MS);
        assertNotNull(m);
        assertTrue(System.currentTimeMillis() - sent >= 690, "delivered too early");
    }

    @ProviderTest
    void delayedMessageDoesNotHoldBackLaterUndelayedOnes(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "delay2");
        MessageProducer delayed = s.createProducer(q);
        delayed.setDeliveryDelay(2_000);
        delayed.send(s.createTextMessage("later"));
        s.createProducer(q).send(s.createTextMessage("now"));
        assertEquals("now", ((TextMessage) s.createConsumer(q).receive(Jms.RECEIVE_MS)).getText());
    }

    @ProviderTest
    void expiredMessageIsNeverDelivered(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "expire");
        MessageProducer p = s.createProducer(q);
        p.setTimeToLive(50);
        p.send(s.createTextMessage("short"));
        p.setTimeToLive(0);
        CountDownLatch wait = new CountDownLatch(1);
        wait.await(150, TimeUnit.MILLISECONDS);
        p.send(s.createTextMessage("long"));
        MessageConsumer c = s.createConsumer(q);
        assertEquals("long", ((TextMessage) c.receive(Jms.RECEIVE_MS)).getText());
        assertNull(c.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void higherPriorityIsDeliveredFirstWhenBothWait(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "prio");
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 5; i++) {
            p.send(s.createTextMessage("low"), DeliveryMode.PERSISTENT, 1, 0);
        }
        p.send(s.createTextMessage("high"), DeliveryMode.PERSISTENT, 9, 0);
        assertEquals("high", ((TextMessage) s.createConsumer(q).receive(Jms.RECEIVE_MS)).getText());
    }

    @ProviderTest
    void invalidPriorityIsRefused(Jms jms) throws Exception {
        Session s = jms.session();
        MessageProducer p = s.createProducer(jms.queue(s, "badprio"));
        assertThrows(jakarta.jms.JMSException.class, () -> p.setPriority(10));
    }

    @ProviderTest
    void invalidDeliveryModeIsRefused(Jms jms) throws Exception {
        Session s = jms.session();
        MessageProducer p = s.createProducer(jms.queue(s, "badmode"));
        assertThrows(jakarta.jms.JMSException.class, () -> p.setDeliveryMode(3));
    }
}
