package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RELEASE_BATCH: a consumer's give-back of many messages in one request. */
class ReleaseBatchTest extends BrokerTestBase {

    @Test
    void aBatchedReleaseGivesEveryMessageBackUncountedInItsQueueOrder() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("give-back");
        client.subscribe(queue, 1);
        for (int i = 0; i < 300; i++) {
            client.send("give-back", DestinationKind.QUEUE, i % 2, "m" + i);
        }
        List<Received> held = pullAll(queue, 1);
        assertEquals(300, held.size());

        client.release(queue, 1, held, false);

        List<Received> again = pullAll(queue, 1);
        assertEquals(bodiesOfQueue(held, 0), bodiesOfQueue(again, 0), "queue 0 in its order");
        assertEquals(bodiesOfQueue(held, 1), bodiesOfQueue(again, 1), "queue 1 in its order");
        assertTrue(again.stream().allMatch(r -> r.deliveryCount() == 1), "uncounted: still a first delivery");
    }

    @Test
    void aGroupsMessagesReleasedTogetherComeBackInTheirOrderBeforeLaterOnes() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("grouped");
        client.subscribe(queue, 1);
        for (int i = 0; i < 50; i++) {
            client.sendWithProperties("grouped", DestinationKind.QUEUE, "g" + i, "JMSXGroupID", "g");
        }
        List<Received> held = pullAll(queue, 1);
        assertEquals(50, held.size());
        client.sendWithProperties("grouped", DestinationKind.QUEUE, "later", "JMSXGroupID", "g");

        client.release(queue, 1, held, true);

        List<Received> again = pullAll(queue, 1);
        List<String> expected = new ArrayList<>(bodiesOfQueue(held, 0));
        expected.add("later");
        assertEquals(expected, bodiesOfQueue(again, 0));
        assertTrue(again.stream().filter(r -> !r.body().equals("later")).allMatch(r -> r.deliveryCount() == 2),
                "counted: a redelivery");
    }

    @Test
    void aBatchNamingAMessageNotHeldReleasesTheOthersAndSaysSo() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("partly");
        client.subscribe(queue, 1);
        for (int i = 0; i < 3; i++) {
            client.send("partly", DestinationKind.QUEUE, 0, "m" + i);
        }
        List<Received> held = pullAll(queue, 1);
        client.ack(queue, List.of(held.get(1)));

        RemotingCommandException e = assertThrows(RemotingCommandException.class,
                () -> client.release(queue, 1, held, false));

        assertEquals(ErrorStatus.DELIVERY_NOT_HELD, e.status());
        assertEquals(List.of("m0", "m2"), bodiesOfQueue(pullAll(queue, 1), 0));
    }

    private List<Received> pullAll(SubscriptionRef queue, long consumer) throws Exception {
        List<Received> all = new ArrayList<>();
        List<Received> got;
        while (!(got = client.pull(queue, consumer, 64, 0)).isEmpty()) {
            all.addAll(got);
        }
        return all;
    }

    private static List<String> bodiesOfQueue(List<Received> messages, int queueId) {
        return messages.stream().filter(r -> r.queueId() == queueId).map(Received::body).toList();
    }
}
