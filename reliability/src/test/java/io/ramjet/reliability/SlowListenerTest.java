package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A MessageListener slower than any timeout the client or broker keeps (2.5 s a message, past
 * the pull hold and the prefetch's one-second "behind" mark), with a second consumer on the
 * queue: a message delivered to a live consumer stays with it until acknowledged (JMS 3.1
 * §6.2.10), so each message is processed exactly once, including those the first consumer had
 * prefetched (it gives them back once it falls behind).
 */
class SlowListenerTest {

    private static final String TEST = "SlowListenerTest";
    private static final int MESSAGES = 8;
    private static final Duration WORK = Duration.ofMillis(2_500);

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void aSlowListenerBesideASecondConsumerProcessesEachMessageOnce() throws Exception {
        BrokerProcess broker = brokers.start("slow-listener", Brokers.properties());
        ConnectionFactory factory = Jms.factory(broker);
        Tally tally = new Tally();
        AtomicInteger[] processedBy = {new AtomicInteger(), new AtomicInteger()};
        long started = System.nanoTime();
        try (Connection first = factory.createConnection(); Connection second = factory.createConnection()) {
            Queue queue = first.createSession(false, Session.AUTO_ACKNOWLEDGE).createQueue("rel.slow");
            listen(first, queue, tally, processedBy[0]);
            first.start();
            send(first, queue, tally);
            listen(second, queue, tally, processedBy[1]);
            second.start();

            Await.until(Duration.ofSeconds(60), () -> tally.lost() == 0);
            Await.settled(WORK.multipliedBy(2), Duration.ofSeconds(15), tally::deliveries);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        tally.summary(TEST, 0, "processedByFirst=" + processedBy[0] + " processedBySecond=" + processedBy[1]
                + " listenerMs=" + WORK.toMillis() + " ms=" + millis);
        assertAll(
                () -> assertEquals(0, tally.lost(), "never processed"),
                () -> assertEquals(0, tally.duplicates(), "processed more than once"));
    }

    private static void listen(Connection connection, Queue queue, Tally tally, AtomicInteger processed)
            throws JMSException {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(queue).setMessageListener((MessageListener) m -> {
            try {
                tally.received(Jms.id(m), m.getJMSRedelivered());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
            LockSupport.parkNanos(WORK.toNanos()); // the application's slow work
            processed.incrementAndGet();
        });
    }

    private static void send(Connection connection, Queue queue, Tally tally) throws JMSException {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(queue);
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        for (int i = 0; i < MESSAGES; i++) {
            String id = "slow-" + i;
            producer.send(Jms.message(session, id));
            tally.sent(id);
        }
        session.close();
    }
}
