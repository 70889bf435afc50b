package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.server.broker.BrokerTestClient.Received;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A new durable subscription is durable, with a delivery bound ahead of its start, before
 * SUBSCRIBE is answered, in one force: its first delivery then waits for no force of its own
 * (no MARK record to write first), whether its messages were waiting or come after the pull.
 */
class FirstDurableDeliveryTest extends BrokerTestBase {

    private static final int ROUNDS = 2;

    private long forces() {
        return broker.store().flushStatistics().forces();
    }

    @Test
    void aNewDurableSubscriptionsFirstPullOfWaitingMessagesForcesNothing() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            SubscriptionRef ref = new SubscriptionRef("prices", SubscriptionType.DURABLE, "app", "waiting" + round);
            long consumer = 10 + round;
            client.subscribe(ref, consumer);
            client.send("prices", DestinationKind.TOPIC, 0, "p" + round);
            long before = forces();
            List<Received> first = client.pull(ref, consumer, 10, 0);
            long forced = forces() - before;
            assertEquals(List.of("p" + round), first.stream().map(Received::body).toList());
            assertEquals(0, forced, "forces between the first pull and its messages, round " + round);
            client.ack(ref, first);
        }
    }

    @Test
    void aNewDurableSubscriptionsFirstMessageSentAfterThePullWaitsForItsOwnForceOnly() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            SubscriptionRef ref = new SubscriptionRef("quotes", SubscriptionType.DURABLE, "app", "after" + round);
            long consumer = 20 + round;
            client.subscribe(ref, consumer);
            CompletableFuture<List<Received>> held = client.pullAsync(ref, consumer, 10, 10_000);
            long before = forces();
            client.send("quotes", DestinationKind.TOPIC, 0, "q" + round);
            List<Received> first = held.get();
            long forced = forces() - before;
            assertEquals(List.of("q" + round), first.stream().map(Received::body).toList());
            assertEquals(1, forced, "forces between the send and its delivery (the message's own), round " + round);
            client.ack(ref, first);
        }
    }
}
