package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One application thread moving messages from one queue to another in transactions (receive,
 * send a copy, commit every 1-10 messages); when its connection or session breaks it opens new
 * ones, as an application would. A copy carries the test's id and, when the original has one,
 * its message group ({@code JMSXGroupID}, {@code JMSXGroupSeq}). It stops once the chaos plan
 * is done and nothing came for a few seconds.
 */
final class Mover implements Runnable {

    private static final Duration IDLE_AFTER_CHAOS = Duration.ofSeconds(5);

    final AtomicInteger committed = new AtomicInteger();
    final AtomicInteger commitFailures = new AtomicInteger();
    final AtomicInteger reconnects = new AtomicInteger();
    volatile long lastCommitNanos;
    private final ConnectionFactory factory;
    private final Chaos chaos;
    private final Random random;
    private final Tally fromA;
    private final String from;
    private final String to;
    private volatile boolean finished;

    Mover(ConnectionFactory factory, Chaos chaos, Random random, Tally fromA, String from, String to) {
        this.factory = factory;
        this.chaos = chaos;
        this.random = random;
        this.fromA = fromA;
        this.from = from;
        this.to = to;
    }

    /**
     * Runs the movers while the chaos plan runs, and until they went idle after it.
     *
     * @return how long the moving took, from the start to the last commit, in ms
     */
    static long moveAll(List<Mover> movers, Chaos chaos) throws Exception {
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
            mover.finished = true;
        }
        for (Thread t : threads) {
            t.join(Jms.CLOSE_TIMEOUT.multipliedBy(2).toMillis());
        }
        return (movers.stream().mapToLong(m -> m.lastCommitNanos).max().orElse(started) - started) / 1_000_000;
    }

    /** The movers' counters for a summary line. */
    static String figures(List<Mover> movers) {
        return "commitsFailed=" + movers.stream().mapToInt(m -> m.commitFailures.get()).sum()
                + " reconnects=" + movers.stream().mapToInt(m -> m.reconnects.get()).sum()
                + " movedByCommitsThatReturned=" + movers.stream().mapToInt(m -> m.committed.get()).sum();
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
                MessageConsumer consumer = session.createConsumer(session.createQueue(from));
                MessageProducer producer = session.createProducer(session.createQueue(to));
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
                        producer.send(copy(session, m));
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

    private static Message copy(Session session, Message original) throws JMSException {
        Message copy = Jms.message(session, Jms.id(original));
        String group = original.getStringProperty("JMSXGroupID");
        if (group != null) {
            copy.setStringProperty("JMSXGroupID", group);
            copy.setIntProperty("JMSXGroupSeq", original.getIntProperty("JMSXGroupSeq"));
        }
        return copy;
    }
}
