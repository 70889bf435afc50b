package io.ramjet.reliability;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.function.Executable;

/**
 * Rounds of one large transaction each: round r receives every message of queue {@code A<r>}
 * and sends a copy of each to {@code B<r>}, then commits while a fault (a kill) strikes. Round 0
 * has no fault: it must commit, and it measures how long a commit takes. Afterwards each round
 * must be all or nothing: B holds every message once and A none, or B none and A every message
 * once; a commit that returned must have made it all. Not thread-safe: one test thread.
 */
final class LargeMoves {

    /** What strikes during a round's commit, given the commit's start. */
    @FunctionalInterface
    interface Fault {
        void strike() throws Exception;
    }

    private final ConnectionFactory factory;
    private final String prefix;
    private final int messages;
    private final List<String> outcomes = new ArrayList<>();
    private long commitMillis;

    LargeMoves(ConnectionFactory factory, String prefix, int messages) {
        this.factory = factory;
        this.prefix = prefix;
        this.messages = messages;
    }

    /** Round 0, without a fault; returns how long its commit took, at least 1 ms. */
    long firstRound() throws Exception {
        preload(0);
        long[] started = new long[1];
        move(0, () -> started[0] = System.nanoTime()).get(60, TimeUnit.SECONDS);
        commitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started[0]));
        return commitMillis;
    }

    /** Round {@code round}: its move, with {@code fault} struck once its commit has begun. */
    void faultyRound(int round, Fault fault) throws Exception {
        preload(round);
        CompletableFuture<Void> commit = move(round, () -> {
            try {
                fault.strike();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            commit.get(60, TimeUnit.SECONDS);
            outcomes.add("returned");
        } catch (Exception e) {
            outcomes.add("threw");
        }
    }

    /** Drains every round's queues, prints the figures and returns the checks of the class comment. */
    List<Executable> checks(String test, String extra) throws JMSException {
        List<int[]> counts = new ArrayList<>();
        for (int round = 0; round <= outcomes.size(); round++) {
            Tally inB = new Tally();
            Tally inA = new Tally();
            int b = Drain.queue(factory, prefix + "B" + round, inB, () -> inB.distinctReceived() == messages,
                    Duration.ofSeconds(1), Duration.ofSeconds(20));
            int a = Drain.queue(factory, prefix + "A" + round, inA, () -> inA.distinctReceived() == messages,
                    Duration.ofSeconds(1), Duration.ofSeconds(20));
            counts.add(new int[] {b, inB.distinctReceived(), a, inA.distinctReceived()});
        }
        StringBuilder figures = new StringBuilder();
        for (int round = 0; round < counts.size(); round++) {
            figures.append(" r").append(round).append(round == 0 ? "" : "(" + outcomes.get(round - 1) + ")")
                    .append(": B=").append(counts.get(round)[0]).append(" A=").append(counts.get(round)[2]);
        }
        System.out.println("RELIABILITY " + test + ": messages=" + messages + " commitMs=" + commitMillis + " "
                + extra + figures);
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals(messages, counts.get(0)[0], "the round without a fault committed whole"));
        for (int round = 0; round < counts.size(); round++) {
            int[] c = counts.get(round);
            String name = "round " + round;
            checks.add(() -> assertTrue(c[0] == 0 || c[0] == messages, name + ": B holds all or nothing, not " + c[0]));
            checks.add(() -> assertEquals(c[0], c[1], name + ": duplicates in B"));
            checks.add(() -> assertEquals(c[2], c[3], name + ": duplicates in A"));
            checks.add(() -> assertEquals(messages, c[0] + c[2], name + ": every message once in A or B"));
            if (round > 0 && outcomes.get(round - 1).equals("returned")) {
                checks.add(() -> assertEquals(messages, c[0], name + ": a commit that returned is whole"));
            }
        }
        return checks;
    }

    private void preload(int round) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(prefix + "A" + round));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < messages; i++) {
                producer.send(Jms.message(session, prefix + round + "-" + i));
                if (i % 1000 == 999) {
                    session.commit();
                }
            }
            session.commit();
        }
    }

    /**
     * Receives every message of A and sends a copy of each to B in one transaction; runs
     * {@code duringCommit} on this thread once the commit has begun on another. The future
     * completes with the commit.
     */
    private CompletableFuture<Void> move(int round, Runnable duringCommit) throws JMSException {
        Connection connection = factory.createConnection();
        Session session;
        try {
            connection.start();
            session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(prefix + "A" + round));
            MessageProducer producer = session.createProducer(session.createQueue(prefix + "B" + round));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < messages; i++) {
                Message m = consumer.receive(10_000);
                if (m == null) {
                    throw new AssertionError("only " + i + " of " + messages + " messages of round " + round + " came");
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
