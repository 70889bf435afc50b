package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scaling out under load, every server a separate process: two NameServers and broker groups
 * {@code a} and {@code b} (one master each), publishers and competing consumers on a queue that
 * lives on both groups, and transactions that each send to a queue homed on {@code a} (their
 * coordinator, the first participant) and one homed on {@code b}. At random moments: {@code kill -9}
 * of group a's broker (restarted on its data), of a NameServer (restarted), of group a's broker
 * again while a transaction's commit is under way, then group {@code c} joins and the queue is
 * extended onto it. What must hold: nothing sent is lost, nothing is stored twice (a repeat
 * without JMSRedelivered), nothing acknowledged comes back, no transaction is partly committed,
 * and a connection opened before c joined sends to c within a few discovery intervals.
 */
class ScaleOutChaosTest {

    private static final String TEST = "ScaleOutChaosTest";
    private static final String QUEUE = "scale.q";
    private static final String TX_A = "scale.tx.a";
    private static final String TX_B = "scale.tx.b";
    private static final long DISCOVERY_MILLIS = 1_000;

    @Test
    void nothingIsLostDuplicatedOrPartlyCommittedWhileGroupsAndNameServersDieAndAGroupJoins() throws Exception {
        long seed = Chaos.seed();
        Random random = new Random(seed);
        System.out.println("RELIABILITY " + TEST + ": seed=" + seed + " (replay with -Dreliability.seed=" + seed + ")");
        try (ScaleCluster cluster = new ScaleCluster("scale", 2)) {
            cluster.startNameServers();
            cluster.startGroups("a", "b");
            cluster.createQueue("a", QUEUE);
            cluster.createQueue("b", QUEUE);
            cluster.createQueue("a", TX_A);
            cluster.createQueue("b", TX_B);
            ConnectionFactory factory = new RamjetConnectionFactory(cluster.url("discoveryMillis=" + DISCOVERY_MILLIS));

            AtomicBoolean stop = new AtomicBoolean();
            Tally queue = new Tally();
            Tally transactions = new Tally();
            List<Thread> threads = new ArrayList<>();
            List<Receiver> receivers = List.of(
                    new Receiver(factory, null, Session.AUTO_ACKNOWLEDGE, s -> s.createConsumer(s.createQueue(QUEUE)),
                            new Random(seed + 1), queue),
                    new Receiver(factory, null, Session.CLIENT_ACKNOWLEDGE, s -> s.createConsumer(s.createQueue(QUEUE)),
                            new Random(seed + 2), queue),
                    new Receiver(factory, null, Session.AUTO_ACKNOWLEDGE, s -> s.createConsumer(s.createQueue(TX_A)),
                            new Random(seed + 3), transactions),
                    new Receiver(factory, null, Session.AUTO_ACKNOWLEDGE, s -> s.createConsumer(s.createQueue(TX_B)),
                            new Random(seed + 4), transactions));
            for (int i = 0; i < receivers.size(); i++) {
                threads.add(receivers.get(i).start("receiver-" + i));
            }
            List<Publisher> publishers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Publisher p = new Publisher(factory, "p" + i, List.of(new Publisher.Target(QUEUE, false, queue)), 100,
                        stop::get);
                publishers.add(p);
                Thread t = new Thread(p, "publisher-" + i);
                t.start();
                threads.add(t);
            }
            Transactor transactor = new Transactor(factory, transactions, stop);
            Thread transacting = new Thread(transactor, "transactor");
            transacting.start();
            Connection early = factory.createConnection();
            try {
                assertTrue(Await.until(Duration.ofSeconds(30), () -> publishers.stream().allMatch(p -> p.lastSentNanos > 0)
                        && transactor.committed.get() > 0), "traffic never flowed:" + cluster.logTails(20));

                pause(random);
                cluster.killGroup("a");
                cluster.startGroups("a");
                pause(random);
                cluster.killNameServer(0);
                pause(random);
                cluster.restartNameServer(0);
                pause(random);
                CountDownLatch committing = new CountDownLatch(1);
                transactor.aboutToCommit = committing;
                assertTrue(committing.await(20, TimeUnit.SECONDS), "no commit under way");
                cluster.killGroup("a");
                cluster.startGroups("a");
                pause(random);
                cluster.startGroups("c");
                cluster.createQueue("c", QUEUE);
                long joined = System.nanoTime();
                boolean used = Await.until(Duration.ofMillis(6 * DISCOVERY_MILLIS), () -> {
                    sendFromNewSessions(early, queue);
                    return cluster.enqueued("c", QUEUE) > 0;
                });
                long usedMillis = (System.nanoTime() - joined) / 1_000_000;
                pause(random);

                stop.set(true);
                for (Thread t : threads.subList(receivers.size(), threads.size())) {
                    t.join(Jms.CLOSE_TIMEOUT.multipliedBy(3).toMillis());
                }
                transacting.join(Jms.CLOSE_TIMEOUT.multipliedBy(3).toMillis());
                Await.until(Duration.ofSeconds(30), () -> queue.lost() == 0 && transactions.lost() == 0);
                Await.settled(Duration.ofSeconds(1), Duration.ofSeconds(10),
                        () -> queue.deliveries() + transactions.deliveries());
                receivers.forEach(Receiver::finish);
                for (Thread t : threads.subList(0, receivers.size())) {
                    t.join(Jms.CLOSE_TIMEOUT.multipliedBy(2).toMillis());
                }

                List<Long> partial = transactor.partlyCommitted();
                String figures = "groups=a,b,+c newGroupUsedMs=" + usedMillis + " onC=" + cluster.enqueued("c", QUEUE)
                        + " commits=" + transactor.committed.get() + " failedCommits=" + transactor.failedCommits.get()
                        + " commitAtKillMs=" + transactor.killedCommitMillis
                        + " partial=" + partial.size() + " failedSends="
                        + publishers.stream().mapToInt(p -> p.failedSends.get()).sum() + " seed=" + seed;
                queue.summary(TEST + "[queue]", 3, figures);
                transactions.summary(TEST + "[transactions]", 3, figures);
                assertAll(
                        () -> assertEquals(0, queue.lost(), "queue: sent, never received " + queue.lostSample(5)),
                        () -> assertEquals(0, queue.redeliveredWithoutFlag(), "queue: stored twice"),
                        () -> assertEquals(0, queue.acknowledgedCameBack(), "queue: acknowledged, delivered again"),
                        () -> assertEquals(0, transactions.lost(), "committed, never received "
                                + transactions.lostSample(5)),
                        () -> assertEquals(0, transactions.redeliveredWithoutFlag(), "transactions: stored twice"),
                        () -> assertEquals(List.of(), partial, "transactions with one of their two messages"),
                        () -> assertTrue(transactor.committed.get() > 0, "no transaction committed"),
                        () -> assertTrue(used, "group c not used within " + 6 * DISCOVERY_MILLIS + " ms"));
            } finally {
                stop.set(true);
                receivers.forEach(Receiver::finish);
                Jms.closeQuietly(early);
            }
        }
    }

    private static void pause(Random random) {
        LockSupport.parkNanos(Duration.ofMillis(300 + random.nextInt(900)).toNanos());
    }

    /** Three new sessions of a connection opened earlier each send one message (consecutive queue choices). */
    private static void sendFromNewSessions(Connection connection, Tally tally) {
        try {
            for (int i = 0; i < 3; i++) {
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                String id = "late-" + System.nanoTime();
                session.createProducer(session.createQueue(QUEUE)).send(Jms.message(session, id));
                tally.sent(id);
                session.close();
            }
        } catch (JMSException e) {
            // a send that threw may or may not be stored: not counted as sent; the next round tries again
        }
    }

    /**
     * Commits transactions of two messages each, {@code t-N-a} to {@link #TX_A} first (group a
     * coordinates) and {@code t-N-b} to {@link #TX_B}, counting both as sent once commit()
     * returned; a commit that threw may have committed or not, but never one of the two alone.
     */
    private static final class Transactor implements Runnable {

        final AtomicInteger committed = new AtomicInteger();
        final AtomicInteger failedCommits = new AtomicInteger();
        /** Counted down just before the next commit(), when set. */
        volatile CountDownLatch aboutToCommit;
        /** How long the commit that was under way at the kill took, in ms (or -1 if it threw). */
        volatile long killedCommitMillis = -2;
        private final ConnectionFactory factory;
        private final Tally tally;
        private final AtomicBoolean stop;
        private int next;

        Transactor(ConnectionFactory factory, Tally tally, AtomicBoolean stop) {
            this.factory = factory;
            this.tally = tally;
            this.stop = stop;
        }

        @Override
        public void run() {
            while (!stop.get()) {
                Connection connection = null;
                try {
                    connection = factory.createConnection();
                    Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                    MessageProducer toA = session.createProducer(session.createQueue(TX_A));
                    MessageProducer toB = session.createProducer(session.createQueue(TX_B));
                    while (!stop.get()) {
                        int n = next++;
                        toA.send(Jms.message(session, "t-" + n + "-a"));
                        toB.send(Jms.message(session, "t-" + n + "-b"));
                        CountDownLatch signal = aboutToCommit;
                        aboutToCommit = null;
                        long start = System.nanoTime();
                        if (signal != null) {
                            signal.countDown();
                        }
                        try {
                            session.commit();
                        } catch (JMSException e) {
                            failedCommits.incrementAndGet();
                            if (signal != null) {
                                killedCommitMillis = -1;
                            }
                            continue;
                        }
                        if (signal != null) {
                            killedCommitMillis = (System.nanoTime() - start) / 1_000_000;
                        }
                        tally.sent(List.of("t-" + n + "-a", "t-" + n + "-b"));
                        committed.incrementAndGet();
                    }
                } catch (JMSException | RuntimeException e) {
                    LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
                } finally {
                    Jms.closeQuietly(connection);
                }
            }
        }

        /** The transactions of which one message was received and the other not. */
        List<Long> partlyCommitted() {
            List<Long> partial = new ArrayList<>();
            for (long n = 0; n < next; n++) {
                if (tally.hasReceived("t-" + n + "-a") != tally.hasReceived("t-" + n + "-b")) {
                    partial.add(n);
                }
            }
            return partial;
        }
    }
}
