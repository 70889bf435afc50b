package io.ramjet.reliability;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A transaction too large for one COMMIT record (a small {@code maxRecordSize} stands for a
 * million messages under the default) moves every message of queue A_r to queue B_r: it
 * receives them all and sends a copy of each, then commits, while the broker is killed with
 * {@code kill -9} at a random instant of the commit. After each restart, round r must be all or
 * nothing: B_r holds every message once and A_r none, or B_r none and A_r every message once
 * (redelivered). A commit that returned must have made it all. The first round is not killed:
 * it must commit, and it measures how long a commit takes, the span the kills are drawn from.
 */
class LargeTransactionKillTest {

    private static final String TEST = "LargeTransactionKillTest";
    private static final int MESSAGES = 2_000;
    private static final int KILLS = 3;

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void aLargeTransactionKilledDuringItsCommitIsAllOrNothing() throws Exception {
        BrokerProcess broker = brokers.start("large-transaction", Brokers.properties("maxRecordSize", "16k"));
        ConnectionFactory factory = Jms.factory(broker);
        long seed = Chaos.seed();
        Random random = new Random(seed);
        System.out.println("RELIABILITY " + TEST + ": seed=" + seed + " (replay with -Dreliability.seed=" + seed + ")");

        preload(factory, "rel.large.A0");
        long[] commitNanos = new long[1];
        CompletableFuture<Void> first = move(factory, "rel.large.A0", "rel.large.B0",
                () -> commitNanos[0] = System.nanoTime());
        first.get(60, TimeUnit.SECONDS);
        long commitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - commitNanos[0]));

        List<String> outcomes = new ArrayList<>();
        int inFlight = 0;
        for (int round = 1; round <= KILLS; round++) {
            preload(factory, "rel.large.A" + round);
            long delay = random.nextLong(commitMillis);
            CompletableFuture<Void> commit = move(factory, "rel.large.A" + round, "rel.large.B" + round, () -> {
                try {
                    Thread.sleep(delay); // the random instant of the kill within the commit, not a condition
                    broker.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            String outcome;
            try {
                commit.get(60, TimeUnit.SECONDS);
                outcome = "returned";
            } catch (Exception e) {
                outcome = "threw";
                inFlight++;
            }
            outcomes.add(outcome + "@" + delay + "ms");
            if (!broker.isAlive()) {
                broker.restart();
            }
        }

        List<int[]> counts = new ArrayList<>();
        for (int round = 0; round <= KILLS; round++) {
            Tally inB = new Tally();
            Tally inA = new Tally();
            int b = Drain.queue(factory, "rel.large.B" + round, inB, () -> inB.distinctReceived() == MESSAGES,
                    Duration.ofSeconds(1), Duration.ofSeconds(20));
            int a = Drain.queue(factory, "rel.large.A" + round, inA, () -> inA.distinctReceived() == MESSAGES,
                    Duration.ofSeconds(1), Duration.ofSeconds(20));
            counts.add(new int[] {b, inB.distinctReceived(), a, inA.distinctReceived()});
        }
        StringBuilder figures = new StringBuilder();
        for (int round = 0; round <= KILLS; round++) {
            int[] c = counts.get(round);
            figures.append(" r").append(round).append(round == 0 ? "" : "(" + outcomes.get(round - 1) + ")")
                    .append(": B=").append(c[0]).append(" A=").append(c[2]);
        }
        System.out.println("RELIABILITY " + TEST + ": messages=" + MESSAGES + " commitMs=" + commitMillis
                + " kills=" + KILLS + " commitsCutShort=" + inFlight + figures);
        List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals(MESSAGES, counts.get(0)[0], "the round not killed committed whole"));
        for (int round = 0; round <= KILLS; round++) {
            int[] c = counts.get(round);
            String name = "round " + round;
            boolean returned = round > 0 && outcomes.get(round - 1).startsWith("returned");
            checks.add(() -> assertTrue(c[0] == 0 || c[0] == MESSAGES, name + ": B holds all or nothing, not " + c[0]));
            checks.add(() -> assertEquals(c[0], c[1], name + ": duplicates in B"));
            checks.add(() -> assertEquals(c[2], c[3], name + ": duplicates in A"));
            checks.add(() -> assertEquals(MESSAGES, c[0] + c[2], name + ": every message once in A or B"));
            if (returned) {
                checks.add(() -> assertEquals(MESSAGES, c[0], name + ": a commit that returned is whole"));
            }
        }
        assertAll(checks);
    }

    private static void preload(ConnectionFactory factory, String queue) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < MESSAGES; i++) {
                producer.send(Jms.message(session, queue + "-" + i));
                if (i % 1000 == 999) {
                    session.commit();
                }
            }
            session.commit();
        }
    }

    /**
     * Receives every message of {@code from} and sends a copy of each to {@code to} in one
     * transaction; runs {@code duringCommit} on this thread once the commit has begun on another.
     * The future completes with the commit.
     */
    private static CompletableFuture<Void> move(ConnectionFactory factory, String from, String to,
                                                Runnable duringCommit) throws JMSException {
        Connection connection = factory.createConnection();
        Session session;
        try {
            connection.start();
            session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(from));
            MessageProducer producer = session.createProducer(session.createQueue(to));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < MESSAGES; i++) {
                Message m = consumer.receive(10_000);
                if (m == null) {
                    throw new AssertionError("only " + i + " of " + MESSAGES + " messages of " + from + " came");
                }
                producer.send(Jms.message(session, Jms.id(m)));
            }
        } catch (JMSException | RuntimeException | Error e) {
            Jms.closeQuietly(connection);
            throw e;
        }
        CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
            try {
                session.commit();
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        duringCommit.run();
        return commit.whenComplete((ok, failed) -> Jms.closeQuietly(connection));
    }
}
