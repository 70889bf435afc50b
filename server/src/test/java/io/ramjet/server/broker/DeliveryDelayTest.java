package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeliveryDelayTest {

    private static final SubscriptionRef QUEUE = SubscriptionRef.queue("later");

    @TempDir
    Path dataDir;

    @Test
    void delayedMessageEntersItsQueueWhenDue() throws Exception {
        Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
            client.subscribe(QUEUE, 1);
            long due = System.currentTimeMillis() + 500;
            assertEquals(-1, client.send("later", DestinationKind.QUEUE, 0, true, due, "d").queueOffset());
            client.send("later", DestinationKind.QUEUE, 0, "now");
            assertEquals(List.of("now"), bodies(client.pull(QUEUE, 1, 10, 0)));

            List<Received> delayed = client.pull(QUEUE, 1, 10, 10_000);
            assertTrue(System.currentTimeMillis() >= due, "not before its delivery time");
            assertEquals(List.of("d"), bodies(delayed));
        } finally {
            broker.close();
        }
    }

    @Test
    void delayedMessageSurvivesARestartAndArrivesOnce() throws Exception {
        Broker first = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(first.address())) {
            client.send("later", DestinationKind.QUEUE, 0, true, System.currentTimeMillis() + 600, "d");
        } finally {
            first.close();
        }
        Broker second = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(second.address())) {
            client.subscribe(QUEUE, 1);
            List<Received> got = client.pull(QUEUE, 1, 10, 10_000);
            assertEquals(List.of("d"), bodies(got));
            client.ack(QUEUE, got);
            assertTrue(client.pull(QUEUE, 1, 10, 800).isEmpty(), "fired once");
        } finally {
            second.close();
        }
    }

    private static List<String> bodies(List<Received> received) {
        return received.stream().map(Received::body).toList();
    }
}
