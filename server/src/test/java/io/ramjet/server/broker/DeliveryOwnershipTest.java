package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A delivered message belongs to the consumer it was delivered to, over the connection that
 * consumer attached with: acknowledgements from anyone else are refused and change nothing.
 */
class DeliveryOwnershipTest extends BrokerTestBase {

    private static int refusal(BrokerTestClient from, Object header) {
        return assertThrows(RemotingCommandException.class, () -> from.invoke(CommandCode.ACK, header)).status();
    }

    @Test
    void anAcknowledgementNamingAnotherConsumersDeliveryIsRefusedAndDeletesNothing() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("owned");
        client.subscribe(queue, 1);
        client.subscribe(queue, 2);
        client.send("owned", DestinationKind.QUEUE, 0, "m");
        Received r = client.pull(queue, 1, 1, 0).get(0);
        assertEquals(ErrorStatus.DELIVERY_NOT_HELD, refusal(client, new AckRequest(2, queue, List.of(r.position()))));
        client.closeConsumer(queue, 1);
        assertEquals("m", client.pull(queue, 2, 1, 0).get(0).body(), "still there for the next consumer");
    }

    @Test
    void anAcknowledgementFromAnotherConnectionIsRefused() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("foreign");
        client.subscribe(queue, 1);
        client.send("foreign", DestinationKind.QUEUE, 0, "m");
        Received r = client.pull(queue, 1, 1, 0).get(0);
        try (BrokerTestClient other = new BrokerTestClient(broker.address())) {
            assertEquals(ErrorStatus.DELIVERY_NOT_HELD,
                    refusal(other, new AckRequest(1, queue, List.of(r.position()))));
        }
        client.ack(queue, List.of(r));
    }

    @Test
    void aHostileAcknowledgementFarPastTheQueueCostsNothingToOthers() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("hostile");
        client.subscribe(queue, 1);
        client.send("hostile", DestinationKind.QUEUE, 0, "m");
        assertEquals(ErrorStatus.DELIVERY_NOT_HELD,
                refusal(client, new AckRequest(1, queue, List.of(new MessagePosition(0, 100_000_000)))));
        List<Received> got = client.pull(queue, 1, 1, 0);
        assertEquals(List.of("m"), got.stream().map(Received::body).toList(), "the queue is as it was");
        client.ack(queue, got);
    }

    @Test
    void readyConsumersOfOneQueueTakeSuccessiveMessagesInTurn() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("turns");
        client.subscribe(queue, 1);
        client.subscribe(queue, 2);
        List<String> order = new java.util.ArrayList<>();
        for (int round = 0; round < 3; round++) {
            var first = client.pullAsync(queue, 1, 10, 5_000);
            awaitHeld(1);
            var second = client.pullAsync(queue, 2, 10, 5_000);
            awaitHeld(2);
            client.send("turns", DestinationKind.QUEUE, 0, "a" + round);
            List<Received> toFirst = first.get();
            client.send("turns", DestinationKind.QUEUE, 0, "b" + round);
            List<Received> toSecond = second.get();
            order.add(toFirst.get(0).body() + ">1");
            order.add(toSecond.get(0).body() + ">2");
            client.ack(queue, toFirst);
            client.ack(queue, toSecond);
        }
        assertEquals(List.of("a0>1", "b0>2", "a1>1", "b1>2", "a2>1", "b2>2"), order,
                "the consumer waiting longest gets the next message");
    }

    private void awaitHeld(int count) {
        await("pulls held").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .until(broker::heldPullCount, held -> held >= count);
    }

    @Test
    void aClosedConsumersKeptMessagesStayItsOwnUntilItsSessionAcknowledgesThem() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("kept");
        client.subscribe(queue, 1);
        client.subscribe(queue, 2);
        client.send("kept", DestinationKind.QUEUE, 0, "a");
        client.send("kept", DestinationKind.QUEUE, 0, "b");
        List<Received> got = client.pull(queue, 1, 2, 0);
        assertEquals(2, got.size());
        client.invoke(CommandCode.CLOSE_CONSUMER, new CloseConsumerRequest(1, queue, List.of(got.get(0).position())));
        List<Received> other = client.pull(queue, 2, 2, 0);
        assertEquals(List.of("b"), other.stream().map(Received::body).toList(), "the unseen one, uncounted");
        assertEquals(1, other.get(0).deliveryCount());
        client.ack(queue, List.of(got.get(0)));
        assertTrue(client.pull(queue, 2, 1, 300).isEmpty(), "the kept one was acknowledged by its session");
    }
}
