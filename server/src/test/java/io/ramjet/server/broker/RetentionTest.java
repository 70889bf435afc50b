package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetentionTest {

    private static final String BIG = "x".repeat(200_000);

    @TempDir
    Path dataDir;

    @Test
    void segmentsGoOnlyOnceEveryMessageInThemIsAcknowledged() throws Exception {
        Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        SubscriptionRef queue = SubscriptionRef.queue("bulk");
        try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
            for (int i = 0; i < 60; i++) {
                client.send("bulk", DestinationKind.QUEUE, 0, i + BIG);
            }
            int segments = broker.store().segmentCount();
            assertTrue(segments >= 3, "several segments: " + segments);
            broker.store().checkpoint();
            broker.runRetention();
            assertEquals(segments, broker.store().segmentCount(), "an unsubscribed queue keeps everything");

            client.subscribe(queue, 1);
            List<Received> all = new ArrayList<>();
            List<Received> got;
            while (all.size() < 50 && !(got = client.pull(queue, 1, 10, 0)).isEmpty()) {
                all.addAll(got);
                client.ack(queue, got);
            }
            broker.store().checkpoint();
            broker.runRetention();
            assertTrue(broker.store().segmentCount() < segments, "acknowledged segments deleted");
            List<Received> rest = client.pull(queue, 1, 20, 0);
            assertEquals(10, rest.size(), "what is still needed is still there");
            assertTrue(rest.get(0).body().startsWith("50x"));
        } finally {
            broker.close();
        }
    }
}
