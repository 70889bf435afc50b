package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Empties a queue into a {@link Tally} on a fresh connection (AUTO_ACKNOWLEDGE): it stops once
 * the tally holds every sent id and nothing more came for a short while (late duplicates),
 * or nothing came for {@code quiet}, or {@code max} passed.
 */
final class Drain {

    private static final Duration AFTER_ALL = Duration.ofSeconds(2);

    private Drain() {
    }

    /** @return the number of messages received */
    static int queue(ConnectionFactory factory, String queue, Tally tally, Duration quiet, Duration max)
            throws JMSException {
        return queue(factory, queue, tally, () -> tally.lost() == 0, quiet, max);
    }

    /** As above, with {@code complete} saying when everything expected from this queue came. */
    static int queue(ConnectionFactory factory, String queue, Tally tally, BooleanSupplier complete, Duration quiet,
                     Duration max) throws JMSException {
        return queue(factory, queue, tally, complete, quiet, max, m -> { });
    }

    /** Looks at each message drained, in the order received, after the tally counted it. */
    interface Each {
        void message(Message m) throws JMSException;
    }

    /** As above, showing {@code each} every message received. */
    static int queue(ConnectionFactory factory, String queue, Tally tally, BooleanSupplier complete, Duration quiet,
                     Duration max, Each each) throws JMSException {
        int count = 0;
        try (Connection connection = factory.createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            long deadline = System.nanoTime() + max.toNanos();
            long lastMessage = System.nanoTime();
            while (System.nanoTime() < deadline) {
                Message m = consumer.receive(250);
                long now = System.nanoTime();
                if (m != null) {
                    count++;
                    tally.received(Jms.id(m), m.getJMSRedelivered());
                    each.message(m);
                    lastMessage = now;
                } else if (now - lastMessage > quiet.toNanos()
                        || (complete.getAsBoolean() && now - lastMessage > AFTER_ALL.toNanos())) {
                    break;
                }
            }
        }
        return count;
    }
}
