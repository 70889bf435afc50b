package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedeliveryTest {

    private static final int MAX_DELIVERIES = 3;

    @TempDir
    Path dataDir;

    private Broker broker;
    private BrokerTestClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir)
                .withMaxDeliveries(MAX_DELIVERIES));
        client = new BrokerTestClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.close();
    }

    @Test
    void nackRedeliversWithTheCountIncreased() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("nacked");
        client.subscribe(queue, 1);
        client.send("nacked", DestinationKind.QUEUE, 0, "m");
        Received first = client.pull(queue, 1, 1, 0).get(0);
        client.release(queue, 1, first, true);
        Received second = client.pull(queue, 1, 1, 0).get(0);
        assertEquals("m", second.body());
        assertEquals(2, second.deliveryCount());
    }

    @Test
    void aSlowConsumerKeepsItsMessageWhileItsConnectionLives() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("slow");
        client.subscribe(queue, 1);
        client.subscribe(queue, 2);
        client.send("slow", DestinationKind.QUEUE, 0, "m");
        assertEquals(1, client.pull(queue, 1, 1, 0).get(0).deliveryCount());
        assertTrue(client.pull(queue, 2, 1, 1_500).isEmpty(),
                "still delivered to consumer 1: no deadline takes a delivery from a live consumer");
    }

    @Test
    void aLostConnectionsMessagesGoToTheNextWithTheCountIncreased() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("lost");
        client.subscribe(queue, 1);
        client.send("lost", DestinationKind.QUEUE, 0, "m");
        try (BrokerTestClient other = new BrokerTestClient(broker.address())) {
            other.subscribe(queue, 2);
            assertEquals(1, other.pull(queue, 2, 1, 0).size());
        }
        List<Received> next = client.pull(queue, 1, 1, 5_000);
        assertEquals(1, next.size(), "visible again once the holder's connection closed");
        assertEquals(2, next.get(0).deliveryCount());
    }

    @Test
    void aClosedConsumersUnseenMessagesGoToTheNextUncounted() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("closed");
        client.subscribe(queue, 1);
        client.subscribe(queue, 2);
        client.send("closed", DestinationKind.QUEUE, 0, "m");
        assertEquals(1, client.pull(queue, 1, 1, 0).size());
        client.closeConsumer(queue, 1);
        Received next = client.pull(queue, 2, 1, 0).get(0);
        assertEquals(1, next.deliveryCount(), "the application never saw it: prefetched, not delivered");
    }

    @Test
    void pastTheMaximumDeliveriesTheMessageIsInTheDeadLetterQueue() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("poison");
        client.subscribe(queue, 1);
        client.send("poison", DestinationKind.QUEUE, 0, "bad");
        for (int i = 1; i <= MAX_DELIVERIES; i++) {
            Received r = client.pull(queue, 1, 1, 0).get(0);
            assertEquals(i, r.deliveryCount());
            client.release(queue, 1, r, true);
        }
        assertTrue(client.pull(queue, 1, 1, 200).isEmpty(), "gone from the original queue");

        SubscriptionRef dlq = SubscriptionRef.queue("DLQ.poison");
        client.subscribe(dlq, 2);
        List<Received> dead = client.pull(dlq, 2, 10, 5_000);
        assertEquals(List.of("bad"), dead.stream().map(Received::body).toList());
        assertEquals(1, dead.get(0).deliveryCount());
    }
}
