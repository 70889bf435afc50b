package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NON_PERSISTENT messages' deliveries and acknowledgements are not logged: nothing is written to
 * the CommitLog when one is pulled or acknowledged; a clean restart keeps their state exactly;
 * after a crash none of them is delivered again, and PERSISTENT messages come back as before.
 */
class NonPersistentTest {

    private static final SubscriptionRef QUEUE = SubscriptionRef.queue("jobs");

    @TempDir
    Path dataDir;

    private static void send(BrokerTestClient client, boolean persistent, String text) throws Exception {
        client.send("jobs", DestinationKind.QUEUE, 0, persistent, 0, text);
    }

    @Test
    void pullingAndAcknowledgingNonPersistentMessagesWritesNothing() throws Exception {
        Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
            for (int i = 0; i < 3; i++) {
                send(client, false, "n" + i);
            }
            client.subscribe(QUEUE, 1);
            long before = broker.store().maxPhysicalOffset();
            List<Received> taken = client.pull(QUEUE, 1, 3, 0);
            assertEquals(3, taken.size());
            client.ack(QUEUE, taken);
            assertEquals(before, broker.store().maxPhysicalOffset(), "no MARK, no ACK record");

            send(client, true, "p0");
            long persistentBefore = broker.store().maxPhysicalOffset();
            client.ack(QUEUE, client.pull(QUEUE, 1, 1, 0));
            assertTrue(broker.store().maxPhysicalOffset() > persistentBefore, "a PERSISTENT message's are logged");
        } finally {
            broker.close();
        }
    }

    @Test
    void aCleanRestartKeepsNonPersistentMessagesAndTheirAcknowledgements() throws Exception {
        Broker first = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(first.address())) {
            for (int i = 0; i < 3; i++) {
                send(client, false, "n" + i);
            }
            client.subscribe(QUEUE, 1);
            client.ack(QUEUE, client.pull(QUEUE, 1, 1, 0));
        } finally {
            first.close();
        }
        Broker second = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(second.address())) {
            client.subscribe(QUEUE, 2);
            assertEquals(Map.of("n1", 1, "n2", 1), client.drainCounts(QUEUE, 2));
        } finally {
            second.close();
        }
    }

    @Test
    void afterACrashNoNonPersistentMessageStoredBeforeItIsDeliveredAgain() throws Exception {
        BrokerProcess.Started child = BrokerProcess.launch(dataDir);
        try {
            try (BrokerTestClient client = new BrokerTestClient(child.address())) {
                send(client, false, "n0");
                send(client, true, "p0");
                send(client, false, "n1");
                send(client, true, "p1");
                send(client, false, "n2");
                client.subscribe(QUEUE, 1);
                List<Received> taken = client.pull(QUEUE, 1, 3, 0);
                assertEquals(List.of("n0", "p0", "n1"), taken.stream().map(Received::body).toList());
                client.ack(QUEUE, taken.subList(0, 2));
            }
        } finally {
            child.process().destroyForcibly();
            assertTrue(child.process().waitFor(20, TimeUnit.SECONDS));
        }

        Broker restarted = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(restarted.address())) {
            client.subscribe(QUEUE, 2);
            // n0 acknowledged, n1 in flight, n2 never offered: none comes back; p0's ACK was logged, and p1 lies
            // below the MARK p0's claim raised: as far as a crash knows, seen
            assertEquals(Map.of("p1", 2), client.drainCounts(QUEUE, 2));
            send(client, false, "n3");
        } finally {
            restarted.close();
        }

        Broker again = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(again.address())) {
            client.subscribe(QUEUE, 3);
            assertEquals(Map.of("n3", 1), client.drainCounts(QUEUE, 3), "stored after the crash, kept by a clean stop");
        } finally {
            again.close();
        }
    }
}
