package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two transacted sessions move messages from queue A to queue B (receive, send a copy, commit
 * every 1-10 messages) while the broker is killed at random. A commit that throws may or may
 * not have committed (JMS allows that on connection loss), so what counts is what finally sits
 * in B, drained after one more kill and restart: every message exactly once. Redelivery flags
 * are checked where repeats happen, on A.
 */
class TransactedMoveTest {

    private static final String TEST = "TransactedMoveTest";
    private static final int MESSAGES = 3_000;
    private static final String A = "rel.move.A";
    private static final String B = "rel.move.B";

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void everyMessageMovedFromAToBArrivesInBExactlyOnce() throws Exception {
        BrokerProcess broker = brokers.start("transacted-move", new Properties());
        ConnectionFactory factory = Jms.factory(broker);
        Tally tally = new Tally();
        preload(factory, tally);

        try (Chaos chaos = new Chaos(TEST, broker, 3, 0, Duration.ofMillis(300), Duration.ofMillis(2_000))) {
            Tally fromA = new Tally();
            List<Mover> movers = List.of(new Mover(factory, chaos, chaos.derived(1), fromA),
                    new Mover(factory, chaos, chaos.derived(2), fromA));
            List<Thread> threads = new ArrayList<>();
            for (Mover mover : movers) {
                Thread t = new Thread(mover, "mover-" + threads.size());
                t.start();
                threads.add(t);
            }
            long started = System.nanoTime();
            chaos.start();
            chaos.awaitDone(Duration.ofSeconds(120));
            for (Thread t : threads) {
                t.join(Duration.ofSeconds(60).toMillis());
            }
            for (Mover mover : movers) {
                mover.finish();
            }
            for (Thread t : threads) {
                t.join(Jms.CLOSE_TIMEOUT.multipliedBy(2).toMillis());
            }
            long moveMillis = (movers.stream().mapToLong(m -> m.lastCommitNanos).max().orElse(started) - started)
                    / 1_000_000;

            broker.kill();
            broker.restart();
            Drain.queue(factory, B, tally, Duration.ofSeconds(5), Duration.ofSeconds(40));
            Tally leftover = new Tally();
            int leftInA = Drain.queue(factory, A, leftover, Duration.ofSeconds(2), Duration.ofSeconds(10));

            int committed = movers.stream().mapToInt(m -> m.committed.get()).sum();
            int commitFailures = movers.stream().mapToInt(m -> m.commitFailures.get()).sum();
            int reconnects = movers.stream().mapToInt(m -> m.reconnects.get()).sum();
            tally.summary(TEST, chaos.kills(), fromA, "commitsFailed=" + commitFailures + " reconnects=" + reconnects
                    + " movedByCommitsThatReturned=" + committed + " leftInA=" + leftInA + " moveMs=" + moveMillis
                    + " " + chaos.figures());
            assertAll(
                    () -> assertEquals(3, chaos.kills(), "kills"),
                    () -> assertEquals(0, tally.lost(), "messages of A never in B (left in A: " + leftInA + ")"),
                    () -> assertEquals(0, tally.duplicates(), "messages in B more than once"),
                    () -> assertEquals(0, fromA.redeliveredWithoutFlag(), "repeats from A without JMSRedelivered"));
        }
    }

    private static void preload(ConnectionFactory factory, Tally tally) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(A));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            List<String> batch = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                String id = String.format("m-%05d", i);
                producer.send(Jms.message(session, id));
                batch.add(id);
                if (batch.size() == 100 || i == MESSAGES - 1) {
                    session.commit();
                    tally.sent(batch);
                    batch.clear();
                }
            }
        }
    }

    /**
     * One application thread moving A to B in transactions; when its connection or session
     * breaks it opens new ones, as an application would.
     */
    private static final class Mover implements Runnable {
        private static final Duration IDLE_AFTER_CHAOS = Duration.ofSeconds(5);

        final AtomicInteger committed = new AtomicInteger();
        final AtomicInteger commitFailures = new AtomicInteger();
        final AtomicInteger reconnects = new AtomicInteger();
        volatile long lastCommitNanos;
        private final ConnectionFactory factory;
        private final Chaos chaos;
        private final Random random;
        private final Tally fromA;
        private volatile boolean finished;

        Mover(ConnectionFactory factory, Chaos chaos, Random random, Tally fromA) {
            this.factory = factory;
            this.chaos = chaos;
            this.random = random;
            this.fromA = fromA;
        }

        void finish() {
            finished = true;
        }

        @Override
        public void run() {
            long idleSince = System.nanoTime();
            while (!finished) {
                Connection connection = null;
                try {
                    connection = factory.createConnection();
                    connection.start();
                    Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                    MessageConsumer consumer = session.createConsumer(session.createQueue(A));
                    MessageProducer producer = session.createProducer(session.createQueue(B));
                    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                    while (!finished) {
                        int batch = 1 + random.nextInt(10);
                        int n = 0;
                        for (; n < batch; n++) {
                            Message m = consumer.receive(500);
                            if (m == null) {
                                break;
                            }
                            fromA.received(Jms.id(m), m.getJMSRedelivered());
                            producer.send(Jms.message(session, Jms.id(m)));
                        }
                        if (n == 0) {
                            if (chaos.isDone() && System.nanoTime() - idleSince > IDLE_AFTER_CHAOS.toNanos()) {
                                finished = true;
                            }
                            continue;
                        }
                        idleSince = System.nanoTime();
                        try {
                            session.commit();
                        } catch (JMSException | RuntimeException e) {
                            commitFailures.incrementAndGet();
                            throw e;
                        }
                        committed.addAndGet(n);
                        lastCommitNanos = System.nanoTime();
                    }
                } catch (JMSException | RuntimeException e) {
                    reconnects.incrementAndGet();
                    idleSince = System.nanoTime();
                } finally {
                    Jms.closeQuietly(connection);
                }
            }
        }
    }
}
