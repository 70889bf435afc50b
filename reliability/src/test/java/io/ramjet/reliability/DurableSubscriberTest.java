package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A durable subscription consumed while a producer publishes and the broker is killed three
 * times and stopped cleanly once, at random. Nothing may be lost; with CLIENT_ACKNOWLEDGE
 * nothing whose acknowledge() returned may come back; with AUTO_ACKNOWLEDGE (acks pipelined as
 * in Artemis) a message may come back, but only saying JMSRedelivered=true.
 */
class DurableSubscriberTest {

    private static final String TOPIC = "rel.durable.T";
    private static final String CLIENT_ID = "rel-durable";
    private static final String SUBSCRIPTION = "rel-sub";

    @RegisterExtension
    final Brokers brokers = new Brokers();

    @Test
    void clientAcknowledgedMessagesAreNeitherLostNorRedelivered() throws Exception {
        String test = "DurableSubscriberTest.clientAcknowledge";
        Run run = run(test, Session.CLIENT_ACKNOWLEDGE);
        assertAll(
                () -> assertEquals(3, run.chaos.kills(), "kills"),
                () -> assertEquals(0, run.tally.lost(), "published, never received: " + run.tally.lostSample(5)),
                () -> assertEquals(0, run.tally.acknowledgedCameBack(), "acknowledged, then delivered again"),
                () -> assertEquals(0, run.tally.redeliveredWithoutFlag(), "repeats without JMSRedelivered"));
    }

    @Test
    void autoAcknowledgedMessagesAreNotLostAndRepeatsSayRedelivered() throws Exception {
        String test = "DurableSubscriberTest.autoAcknowledge";
        Run run = run(test, Session.AUTO_ACKNOWLEDGE);
        assertAll(
                () -> assertEquals(3, run.chaos.kills(), "kills"),
                () -> assertEquals(0, run.tally.lost(), "published, never received: " + run.tally.lostSample(5)),
                () -> assertEquals(0, run.tally.redeliveredWithoutFlag(), "repeats without JMSRedelivered"));
    }

    private record Run(Tally tally, Chaos chaos) {
    }

    private Run run(String test, int acknowledgeMode) throws Exception {
        BrokerProcess broker = brokers.start(test, new Properties());
        ConnectionFactory factory = Jms.factory(broker);
        Tally tally = new Tally();
        try (Connection c = factory.createConnection()) {
            c.setClientID(CLIENT_ID);
            Session s = c.createSession(false, acknowledgeMode);
            s.createDurableConsumer(s.createTopic(TOPIC), SUBSCRIPTION).close();
        }
        try (Chaos chaos = new Chaos(test, broker, 3, 1, Duration.ofMillis(1_000), Duration.ofMillis(3_000))) {
            Subscriber subscriber = new Subscriber(factory, acknowledgeMode, chaos.derived(1), tally);
            Publisher publisher = new Publisher(factory, "d", List.of(new Publisher.Target(TOPIC, true, tally)), 150,
                    chaos::isDone);
            Thread subscribing = new Thread(subscriber, "subscriber");
            Thread publishing = new Thread(publisher, "publisher");
            subscribing.start();
            publishing.start();
            chaos.start();
            chaos.awaitDone(Duration.ofSeconds(120));
            publishing.join(Jms.CLOSE_TIMEOUT.multipliedBy(3).toMillis());
            Await.until(Duration.ofSeconds(30), () -> tally.lost() == 0);
            Await.settled(Duration.ofSeconds(2), Duration.ofSeconds(10), tally::deliveries);
            subscriber.finish();
            subscribing.join(Jms.CLOSE_TIMEOUT.multipliedBy(2).toMillis());
            tally.summary(test, chaos.kills(), "failedSends=" + publisher.failedSends.get()
                    + " reconnects=" + subscriber.reconnects + " acknowledgeFailures=" + subscriber.acknowledgeFailures
                    + " " + chaos.figures());
            return new Run(tally, chaos);
        }
    }

    /** The application consuming the durable subscription, reconnecting when it breaks. */
    private static final class Subscriber implements Runnable {
        volatile int reconnects;
        volatile int acknowledgeFailures;
        private final ConnectionFactory factory;
        private final int acknowledgeMode;
        private final Random random;
        private final Tally tally;
        private volatile boolean finished;

        Subscriber(ConnectionFactory factory, int acknowledgeMode, Random random, Tally tally) {
            this.factory = factory;
            this.acknowledgeMode = acknowledgeMode;
            this.random = random;
            this.tally = tally;
        }

        void finish() {
            finished = true;
        }

        @Override
        public void run() {
            while (!finished) {
                Connection connection = null;
                try {
                    connection = factory.createConnection();
                    connection.setClientID(CLIENT_ID);
                    connection.start();
                    Session session = connection.createSession(false, acknowledgeMode);
                    consume(session.createDurableConsumer(session.createTopic(TOPIC), SUBSCRIPTION));
                } catch (JMSException | RuntimeException e) {
                    reconnects++;
                    LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
                } finally {
                    Jms.closeQuietly(connection);
                }
            }
        }

        private void consume(MessageConsumer consumer) throws JMSException {
            List<String> unacknowledged = new ArrayList<>();
            Message last = null;
            int acknowledgeEvery = 1 + random.nextInt(5);
            while (!finished) {
                Message m = consumer.receive(200);
                if (m != null) {
                    tally.received(Jms.id(m), m.getJMSRedelivered());
                    unacknowledged.add(Jms.id(m));
                    last = m;
                }
                if (acknowledgeMode == Session.CLIENT_ACKNOWLEDGE && last != null
                        && (unacknowledged.size() >= acknowledgeEvery || m == null)) {
                    try {
                        last.acknowledge();
                    } catch (JMSException | RuntimeException e) {
                        acknowledgeFailures++;
                        throw e;
                    }
                    tally.acknowledged(unacknowledged);
                    unacknowledged.clear();
                    last = null;
                    acknowledgeEvery = 1 + random.nextInt(5);
                }
            }
        }
    }
}
