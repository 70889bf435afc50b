package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** After Session.recover() the redelivered messages come first, in order, before anything prefetched. */
class RecoverOrderTest extends BrokerTestSupport {

    private static void send(Session session, Queue queue, int count) throws JMSException {
        MessageProducer producer = session.createProducer(queue);
        for (int i = 0; i < count; i++) {
            producer.send(session.createTextMessage("m" + i));
        }
    }

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "a message arrives");
        return ((TextMessage) m).getText();
    }

    /** Waits until the consumer's prefetch has taken in {@code count} messages. */
    private static void awaitPrefetched(MessageConsumer consumer, int count) {
        await("the prefetch holds " + count + " messages").atMost(Duration.ofMillis(TIMEOUT)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5))
                .until(() -> ((RamjetMessageConsumer) consumer).prefetchedCount() >= count);
    }

    @Test
    void recoveredMessagesComeBeforePrefetchedOnesInTheirOrder() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("recover-order"));
            send(session, queue, 10);
            MessageConsumer consumer = session.createConsumer(queue);
            List<String> first = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Message m = consumer.receive(TIMEOUT);
                first.add(text(m));
                assertFalse(m.getJMSRedelivered());
            }
            assertEquals(List.of("m0", "m1", "m2"), first);
            awaitPrefetched(consumer, 1);
            session.recover();
            for (int i = 0; i < 10; i++) {
                Message m = consumer.receive(TIMEOUT);
                assertEquals("m" + i, text(m), "position " + i + " after recover");
                assertEquals(i < 3, m.getJMSRedelivered(), "JMSRedelivered of m" + i);
                assertEquals(i < 3 ? 2 : 1, m.getIntProperty("JMSXDeliveryCount"), "delivery count of m" + i);
            }
            assertNull(consumer.receive(SHORT));
        }
    }

    @Test
    void recoverInsideAListenerRedeliversTheCurrentMessageToo() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("recover-listener"));
            send(session, queue, 4);
            List<String> seen = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            session.createConsumer(queue).setMessageListener(m -> {
                try {
                    seen.add(text(m) + (m.getJMSRedelivered() ? "*" : ""));
                    if (seen.size() == 2) {
                        session.recover();
                    } else if (seen.size() == 6) {
                        m.acknowledge();
                        done.countDown();
                    }
                } catch (Throwable t) {
                    failure.set(t);
                    done.countDown();
                }
            });
            assertTrue(done.await(TIMEOUT, TimeUnit.MILLISECONDS), "the listener saw six deliveries: " + seen);
            assertNull(failure.get());
            assertEquals(List.of("m0", "m1", "m0*", "m1*", "m2", "m3"), seen);
        }
    }
}
