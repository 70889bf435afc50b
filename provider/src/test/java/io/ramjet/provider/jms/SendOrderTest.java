package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A new connection's first asynchronous sends, handed in before it has a route or a connection
 * to the broker: they all wait for the same lookup and connection, and must still reach the
 * broker in the order they were sent (JMS's order per producer), every one of them stored (an
 * idempotent producer's earlier sequence arriving after a later one would be dropped as a
 * resend: the first 198 of 10,000 paced sends were lost so before the fix).
 */
class SendOrderTest extends BrokerTestSupport {

    @Test
    void asyncSendsHandedInBeforeTheConnectionIsUpKeepTheirOrderAndAllArrive() throws Exception {
        int count = 300;
        String name = unique("order");
        try (Connection first = factory().createConnection()) {
            // the destination exists, so the producer's route lookup needs no broker connection
            first.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(first.createSession().createQueue(name)).close();
        }
        try (Connection connection = factory().createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(name);
            MessageProducer producer = session.createProducer(queue);
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            CountDownLatch sent = new CountDownLatch(count);
            AtomicReference<Exception> failure = new AtomicReference<>();
            CompletionListener listener = new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    sent.countDown();
                }

                @Override
                public void onException(Message message, Exception exception) {
                    failure.compareAndSet(null, exception);
                    sent.countDown();
                }
            };
            for (int i = 0; i < count; i++) {
                producer.send(session.createTextMessage(Integer.toString(i)), listener);
            }
            assertTrue(sent.await(30, TimeUnit.SECONDS), "sends answered");
            assertNull(failure.get());
            MessageConsumer consumer = connection.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            for (int i = 0; i < count; i++) {
                TextMessage m = (TextMessage) consumer.receive(TIMEOUT);
                assertNotNull(m, "message " + i + " of " + count);
                assertEquals(Integer.toString(i), m.getText(), "message " + i);
            }
            assertNull(consumer.receiveNoWait());
        }
    }
}
