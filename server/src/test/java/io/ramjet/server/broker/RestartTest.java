package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RestartTest {

    private static final SubscriptionRef QUEUE = SubscriptionRef.queue("jobs");
    private static final SubscriptionRef DURABLE = new SubscriptionRef("prices", SubscriptionType.DURABLE, "app", "all");

    @TempDir
    Path dataDir;

    /** Sends five jobs, takes three, acks the first; two prices on the durable subscription, acks the first. */
    private static void consumeSome(BrokerTestClient client) throws Exception {
        for (int i = 0; i < 5; i++) {
            client.send("jobs", DestinationKind.QUEUE, 0, "m" + i);
        }
        client.subscribe(QUEUE, 1);
        List<Received> taken = client.pull(QUEUE, 1, 3, 0);
        assertEquals(3, taken.size());
        client.ack(QUEUE, taken.subList(0, 1));
        client.subscribe(DURABLE, 2);
        client.send("prices", DestinationKind.TOPIC, 0, "t0");
        client.send("prices", DestinationKind.TOPIC, 0, "t1");
        List<Received> prices = client.pull(DURABLE, 2, 1, 0);
        assertEquals("t0", prices.get(0).body());
        client.ack(DURABLE, prices);
    }

    @Test
    void cleanRestartKeepsUnackedMessagesAcksAndDurableSubscriptions() throws Exception {
        Broker first = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(first.address())) {
            consumeSome(client);
        }
        first.close();

        Broker second = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(second.address())) {
            assertAfterRestart(client, Map.of("m1", 2, "m2", 2, "m3", 1, "m4", 1), Map.of("t1", 1));
        } finally {
            second.close();
        }
    }

    @Test
    void killedBrokerKeepsUnackedMessagesAcksAndDurableSubscriptions() throws Exception {
        BrokerProcess.Started child = BrokerProcess.launch(dataDir);
        try {
            try (BrokerTestClient client = new BrokerTestClient(child.address())) {
                consumeSome(client);
                awaitSnapshotAfter(FileTime.fromMillis(System.currentTimeMillis()));
                List<Received> next = client.pull(QUEUE, 1, 2, 0);
                assertEquals(List.of("m3", "m4"), next.stream().map(Received::body).toList());
                client.ack(QUEUE, next.subList(0, 1));
                client.send("jobs", DestinationKind.QUEUE, 0, "m5");
            }
        } finally {
            child.process().destroyForcibly();
            assertTrue(child.process().waitFor(20, TimeUnit.SECONDS));
        }

        Broker restarted = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(restarted.address())) {
            // m1, m2 in flight at the snapshot; m4 claimed and m3 acked after it (from their records); m5 and t1
            // never seen, but below the bounds the MARKs raised ahead of the claims: as far as a crash knows, seen
            assertAfterRestart(client, Map.of("m1", 2, "m2", 2, "m4", 2, "m5", 2), Map.of("t1", 2));
        } finally {
            restarted.close();
        }
    }

    /** Waits until either copy of the snapshot was written after {@code time}. */
    private void awaitSnapshotAfter(FileTime time) {
        Path broker = dataDir.resolve("broker");
        List<Path> copies = List.of(broker.resolve("consumption.snapshot"), broker.resolve("consumption.snapshot.b"));
        await("a snapshot written").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20)).until(() -> copies.stream().anyMatch(copy -> {
                    try {
                        return Files.getLastModifiedTime(copy).compareTo(time) > 0;
                    } catch (java.io.IOException notYet) {
                        return false;
                    }
                }));
    }

    private static void assertAfterRestart(BrokerTestClient client, Map<String, Integer> jobs,
                                           Map<String, Integer> prices) throws Exception {
        client.subscribe(QUEUE, 5);
        assertEquals(new TreeMap<>(jobs), client.drainCounts(QUEUE, 5));
        client.subscribe(DURABLE, 6);
        assertEquals(new TreeMap<>(prices), client.drainCounts(DURABLE, 6));
    }
}
