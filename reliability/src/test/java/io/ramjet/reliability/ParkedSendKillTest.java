package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sends in doubt on a group without a slave are parked on the other group instead of waiting
 * for a master: two groups of one broker each, a queue on both, producers sending persistent
 * messages while group a's broker is killed ({@code kill -9}) at random points and restarted on
 * its data, repeatedly. Every {@code send()} returns within the request timeout plus a round trip
 * (never the 30 s failover timeout), and once group a is back every answered message exists
 * exactly once across both groups: stored by a, or parked on b and delivered from b once a said
 * it does not hold it.
 */
class ParkedSendKillTest {

    private static final String TEST = "ParkedSendKillTest";
    private static final String QUEUE = "rel.parked";
    private static final int KILLS = 3;
    private static final int PRODUCERS = 4;
    private static final long REQUEST_TIMEOUT_MS = 2_000;
    /** A send's longest allowed time: its request timeout, then a round trip to park it. */
    private static final long SEND_BOUND_MS = REQUEST_TIMEOUT_MS + 2_000;

    @Test
    void everySendReturnsWithinARoundTripAndEveryAnsweredMessageIsStoredOnce() throws Exception {
        long seed = Long.getLong("ramjet.chaos.seed", System.nanoTime());
        Random random = new Random(seed);
        try (ScaleCluster cluster = new ScaleCluster("parked", 1)) {
            Properties keys = new Properties();
            keys.setProperty("clusterSecret", "the parked send test's cluster secret");
            keys.setProperty("transactionCheckAfterMs", "300");
            keys.setProperty("transactionCheckIntervalMs", "200");
            cluster.brokerKeys(keys);
            cluster.startNameServers();
            cluster.startGroups("a", "b");
            cluster.createQueue("a", QUEUE);
            cluster.createQueue("b", QUEUE);
            ConnectionFactory factory = new RamjetConnectionFactory(cluster.url("requestTimeout=" + REQUEST_TIMEOUT_MS
                    + "&failoverTimeout=30000&discoveryMillis=500"));
            Tally tally = new Tally();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong longestSend = new AtomicLong();
            AtomicLong failedSends = new AtomicLong();
            List<Thread> producers = new ArrayList<>();
            try (Connection connection = factory.createConnection()) {
                for (int p = 0; p < PRODUCERS; p++) {
                    Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer producer = session.createProducer(session.createQueue(QUEUE));
                    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                    String prefix = "p" + p + "-";
                    Thread t = new Thread(() -> {
                        for (int i = 0; !stop.get(); i++) {
                            String id = prefix + i;
                            long start = System.nanoTime();
                            try {
                                producer.send(Jms.message(session, id));
                                tally.sent(id);
                            } catch (Exception e) {
                                failedSends.incrementAndGet();
                            }
                            longestSend.accumulateAndGet((System.nanoTime() - start) / 1_000_000, Math::max);
                        }
                    }, TEST + "-" + prefix);
                    producers.add(t);
                    t.start();
                }
                for (int k = 0; k < KILLS; k++) {
                    Thread.sleep(300 + random.nextInt(900));
                    cluster.killGroup("a");
                    // down longer than a send may take: a send that waited for the group's master would show
                    Thread.sleep(SEND_BOUND_MS + 300 + random.nextInt(500));
                    cluster.startGroups("a");
                }
                Thread.sleep(300 + random.nextInt(500));
                stop.set(true);
                for (Thread t : producers) {
                    t.join(SEND_BOUND_MS * 3);
                }
            }
            ConnectionFactory readers = new RamjetConnectionFactory(cluster.url("discoveryMillis=500"));
            Drain.queue(readers, QUEUE, tally, () -> tally.lost() == 0, Duration.ofSeconds(2), Duration.ofSeconds(30));
            System.out.println(tally.summary(TEST, KILLS, "seed=" + seed + " longestSendMs=" + longestSend.get()
                    + " failedSends=" + failedSends.get()));
            assertAll(
                    () -> assertTrue(tally.sentCount() > 0, "nothing was sent"),
                    () -> assertEquals(0, tally.lost(), "answered messages never received (seed " + seed + "): "
                            + tally.lostSample(5) + cluster.logTails(20)),
                    () -> assertEquals(0, tally.duplicates(), "messages received more than once (seed " + seed + ")"),
                    () -> assertTrue(longestSend.get() <= SEND_BOUND_MS, "a send took " + longestSend.get()
                            + " ms (seed " + seed + ")"));
        }
    }
}
