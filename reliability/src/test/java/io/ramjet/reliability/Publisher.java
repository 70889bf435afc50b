package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * An application thread sending PERSISTENT messages synchronously, round-robin to its
 * destinations, at a steady rate until told to stop. An id counts as sent when send()
 * returned; a send that threw is never repeated under the same id (it may have been stored),
 * and a broken connection is replaced by a new one.
 */
final class Publisher implements Runnable {

    private static final Duration RECONNECT_PAUSE = Duration.ofMillis(100);

    final AtomicInteger failedSends = new AtomicInteger();
    /** What the failed sends threw, in order. */
    final List<Exception> sendFailures = new CopyOnWriteArrayList<>();
    /** When the last send returned ({@link System#nanoTime()}), for measuring how long sends stalled. */
    volatile long lastSentNanos;
    private final ConnectionFactory factory;
    private final String prefix;
    private final List<Target> targets;
    private final long intervalNanos;
    private final BooleanSupplier stop;
    private int next;

    /** A destination and the tally of what was sent to it. */
    record Target(String name, boolean topic, Tally tally) {
    }

    Publisher(ConnectionFactory factory, String prefix, List<Target> targets, int perSecond, BooleanSupplier stop) {
        this.factory = factory;
        this.prefix = prefix;
        this.targets = targets;
        this.intervalNanos = Duration.ofSeconds(1).toNanos() / perSecond;
        this.stop = stop;
    }

    @Override
    public void run() {
        long due = System.nanoTime();
        while (!stop.getAsBoolean()) {
            Connection connection = null;
            try {
                connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(null);
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                while (!stop.getAsBoolean()) {
                    Target target = targets.get(next % targets.size());
                    String id = prefix + "-" + next++;
                    producer.send(target.topic() ? session.createTopic(target.name())
                            : session.createQueue(target.name()), Jms.message(session, id));
                    target.tally().sent(id);
                    lastSentNanos = System.nanoTime();
                    due += intervalNanos;
                    LockSupport.parkNanos(due - System.nanoTime());
                }
            } catch (JMSException | RuntimeException e) {
                failedSends.incrementAndGet();
                sendFailures.add(e);
                LockSupport.parkNanos(RECONNECT_PAUSE.toNanos());
                due = System.nanoTime();
            } finally {
                Jms.closeQuietly(connection);
            }
        }
    }
}
