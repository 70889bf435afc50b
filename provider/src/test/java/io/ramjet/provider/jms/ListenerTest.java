package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ListenerTest extends BrokerTestSupport {

    @Test
    void listenersOfOneSessionRunOneAtATimeInOrder() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue a = session.createQueue(unique("listen-a"));
            Queue b = session.createQueue(unique("listen-b"));
            int each = 20;
            CountDownLatch done = new CountDownLatch(2 * each);
            AtomicInteger running = new AtomicInteger();
            AtomicBoolean overlapped = new AtomicBoolean();
            List<Integer> orderA = new CopyOnWriteArrayList<>();
            for (Queue q : List.of(a, b)) {
                session.createConsumer(q).setMessageListener(m -> {
                    if (running.incrementAndGet() > 1) {
                        overlapped.set(true);
                    }
                    try {
                        if (q == a) {
                            orderA.add(m.getIntProperty("seq"));
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                    running.decrementAndGet();
                    done.countDown();
                });
            }
            Session producing = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = producing.createProducer(null);
            for (int i = 0; i < each; i++) {
                for (Queue q : List.of(a, b)) {
                    Message m = producing.createMessage();
                    m.setIntProperty("seq", i);
                    producer.send(q, m);
                }
            }
            assertTrue(done.await(TIMEOUT, TimeUnit.MILLISECONDS));
            assertFalse(overlapped.get(), "listeners of one session overlapped");
            for (int i = 0; i < each; i++) {
                assertEquals(i, orderA.get(i));
            }
        }
    }

    @Test
    void stopWaitsForTheListenerInProgressAndHoldsFurtherDeliveries() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("stop"));
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean finished = new AtomicBoolean();
            AtomicInteger deliveries = new AtomicInteger();
            session.createConsumer(queue).setMessageListener(m -> {
                deliveries.incrementAndGet();
                entered.countDown();
                try {
                    release.await(TIMEOUT, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                finished.set(true);
            });
            MessageProducer producer = session.createProducer(queue);
            producer.send(session.createTextMessage("1"));
            producer.send(session.createTextMessage("2"));
            assertTrue(entered.await(TIMEOUT, TimeUnit.MILLISECONDS));
            Thread stopping = Thread.currentThread();
            Thread releaser = new Thread(() -> {
                // once this thread waits in stop for the listener to return
                await().atMost(Duration.ofMillis(TIMEOUT)).until(stopping::getState,
                        state -> state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING);
                release.countDown();
            });
            releaser.start();
            connection.stop();
            assertTrue(finished.get(), "stop returned before the listener did");
            assertEquals(1, deliveries.get(), "nothing delivered while stopped");
            releaser.join();
        }
    }

    @Test
    void receiveIsRefusedWhileAListenerIsSet() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(unique("both")));
            consumer.setMessageListener(m -> { });
            assertThrows(jakarta.jms.IllegalStateException.class, () -> consumer.receive(SHORT));
        }
    }

    @Test
    void asyncSendCallsBackInOrder() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("async"));
            MessageProducer producer = session.createProducer(queue);
            int count = 50;
            List<String> completed = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(count);
            CompletionListener listener = new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    try {
                        completed.add(((TextMessage) message).getText());
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                    done.countDown();
                }

                @Override
                public void onException(Message message, Exception exception) {
                    done.countDown();
                }
            };
            for (int i = 0; i < count; i++) {
                producer.send(session.createTextMessage(Integer.toString(i)), listener);
            }
            assertTrue(done.await(TIMEOUT, TimeUnit.MILLISECONDS));
            for (int i = 0; i < count; i++) {
                assertEquals(Integer.toString(i), completed.get(i));
            }
            MessageConsumer consumer = session.createConsumer(queue);
            for (int i = 0; i < count; i++) {
                assertNotNull(consumer.receive(TIMEOUT));
            }
        }
    }

    @Test
    void aTemporaryQueueWorksAndDiesWithItsConnection() throws Exception {
        Connection connection = connect();
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        TemporaryQueue temporary = session.createTemporaryQueue();
        MessageConsumer consumer = session.createConsumer(temporary);
        try (Connection other = connect()) {
            Session otherSession = other.createSession(Session.AUTO_ACKNOWLEDGE);
            otherSession.createProducer(temporary).send(otherSession.createTextMessage("reply"));
            assertThrows(jakarta.jms.JMSException.class, () -> otherSession.createConsumer(temporary),
                    "only its connection may consume it");
        }
        assertEquals("reply", ((TextMessage) consumer.receive(TIMEOUT)).getText());
        assertThrows(jakarta.jms.IllegalStateException.class, temporary::delete, "in use");
        consumer.close();
        temporary.delete();
        connection.close();
    }

    @Test
    void aForeignMessageIsCopiedAndItsHeadersSet() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("foreign"));
            TextMessage foreign = (TextMessage) java.lang.reflect.Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {TextMessage.class}, new ForeignText("abroad"));
            session.createProducer(queue).send(foreign);
            assertTrue(foreign.getJMSMessageID().startsWith("ID:"), "headers set on the foreign message too");
            TextMessage received = (TextMessage) session.createConsumer(queue).receive(TIMEOUT);
            assertEquals("abroad", received.getText());
            assertNull(session.createConsumer(queue).receive(SHORT));
        }
    }
}
