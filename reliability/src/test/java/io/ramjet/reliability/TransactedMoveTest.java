package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

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
            List<Mover> movers = List.of(new Mover(factory, chaos, chaos.derived(1), fromA, A, B),
                    new Mover(factory, chaos, chaos.derived(2), fromA, A, B));
            long moveMillis = Mover.moveAll(movers, chaos);

            broker.kill();
            broker.restart();
            Drain.queue(factory, B, tally, Duration.ofSeconds(5), Duration.ofSeconds(40));
            Tally leftover = new Tally();
            int leftInA = Drain.queue(factory, A, leftover, Duration.ofSeconds(2), Duration.ofSeconds(10));

            tally.summary(TEST, chaos.kills(), fromA, Mover.figures(movers) + " leftInA=" + leftInA
                    + " moveMs=" + moveMillis + " " + chaos.figures());
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
}
