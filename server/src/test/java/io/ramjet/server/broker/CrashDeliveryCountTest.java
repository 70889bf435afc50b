package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Broker processes killed with {@code kill -9} several times in a row: the messages claimed
 * ahead of the deliveries (the MARK window) come back flagged as possibly delivered, but only
 * deliveries the broker saw happen count towards {@code maxDeliveries}.
 */
class CrashDeliveryCountTest {

    private static final SubscriptionRef QUEUE = SubscriptionRef.queue("jobs");
    private static final SubscriptionRef DEAD_LETTERS = SubscriptionRef.queue("DLQ.jobs");
    private static final int MAX_DELIVERIES = 1;
    private static final int CRASHES = 3;
    private static final int MESSAGES = 20;

    @TempDir
    Path dataDir;

    @Test
    void crashesInARowDeadLetterNoMessageNobodyReceived() throws Exception {
        List<String> acked = new ArrayList<>();
        for (int crash = 0; crash < CRASHES; crash++) {
            BrokerProcess.Started child = BrokerProcess.launch(dataDir, MAX_DELIVERIES);
            try (BrokerTestClient client = new BrokerTestClient(child.address())) {
                if (crash == 0) {
                    client.send("jobs", DestinationKind.QUEUE, 0, "seen");
                    for (int i = 0; i < MESSAGES; i++) {
                        client.send("jobs", DestinationKind.QUEUE, 0, String.format("m%02d", i));
                    }
                }
                client.subscribe(QUEUE, 1);
                if (crash == 0) {
                    Received seen = client.pull(QUEUE, 1, 1, 0).get(0);
                    assertEquals("seen", seen.body());
                    client.release(QUEUE, 1, seen, true); // the application saw it: one counted delivery
                }
                List<Received> pulled = client.pull(QUEUE, 1, 1, 0);
                assertEquals(1, pulled.size(), "what a crash left flagged was dead-lettered instead of delivered");
                Received next = pulled.get(0);
                assertEquals(crash == 0 ? 1 : 2, next.deliveryCount(), next.body());
                client.ack(QUEUE, List.of(next));
                acked.add(next.body());
                if (crash == CRASHES - 1) {
                    awaitSnapshotAfter(FileTime.fromMillis(System.currentTimeMillis()));
                }
            } finally {
                child.process().destroyForcibly();
                assertTrue(child.process().waitFor(20, TimeUnit.SECONDS));
            }
        }

        Broker restarted = BrokerTestSupport.start(BrokerTestSupport.config(dataDir).withMaxDeliveries(MAX_DELIVERIES));
        try (BrokerTestClient client = new BrokerTestClient(restarted.address())) {
            client.subscribe(QUEUE, 5);
            Map<String, Integer> expected = new TreeMap<>();
            for (int i = 0; i < MESSAGES; i++) {
                String body = String.format("m%02d", i);
                if (!acked.contains(body)) {
                    expected.put(body, 2); // flagged redelivered, as the spec wants it with a count of 2
                }
            }
            assertEquals(CRASHES, acked.size());
            assertEquals(expected, client.drainCounts(QUEUE, 5), "never received: delivered, not dead-lettered");
            client.subscribe(DEAD_LETTERS, 6);
            Map<String, Integer> deadLettered = new TreeMap<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                deadLettered.putAll(client.drainCounts(DEAD_LETTERS, 6));
                return !deadLettered.isEmpty();
            });
            assertEquals(Map.of("seen", 1), deadLettered, "only the message delivered once is over the limit");
        } finally {
            restarted.close();
        }
    }

    /** Waits until either copy of the consumption snapshot was written after {@code time}. */
    private void awaitSnapshotAfter(FileTime time) {
        Path broker = dataDir.resolve("broker");
        List<Path> copies = List.of(broker.resolve("consumption.snapshot"), broker.resolve("consumption.snapshot.b"));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
            for (Path copy : copies) {
                if (Files.exists(copy) && Files.getLastModifiedTime(copy).compareTo(time) > 0) {
                    return true;
                }
            }
            return false;
        });
    }
}
