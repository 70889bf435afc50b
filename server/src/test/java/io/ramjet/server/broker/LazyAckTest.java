package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LAZY_ACK, as AUTO and DUPS_OK sessions acknowledge: the broker answers before the ACK record
 * is durable, but what it acknowledges is gone at once and stays gone across a clean restart,
 * and it takes only what is in flight to the consumer, as ACK does.
 */
class LazyAckTest extends BrokerTestBase {

    private final SubscriptionRef queue = SubscriptionRef.queue("lazy");

    @Test
    void aLazilyAcknowledgedMessageIsNeverOfferedAgain() throws Exception {
        client.subscribe(queue, 1);
        client.send("lazy", DestinationKind.QUEUE, 0, "a");
        client.send("lazy", DestinationKind.QUEUE, 0, "b");
        List<Received> both = client.pull(queue, 1, 2, 0);
        client.lazyAck(queue, both.subList(0, 1));
        client.closeConsumer(queue, 1);
        client.subscribe(queue, 2);
        assertEquals(List.of("b"), client.pull(queue, 2, 10, 0).stream().map(Received::body).toList(),
                "only the unacknowledged one comes back");
    }

    @Test
    void lazyAcknowledgementsOfADurableSubscriptionSurviveACleanRestart() throws Exception {
        SubscriptionRef durable = new SubscriptionRef("news", SubscriptionType.DURABLE, "app", "all");
        client.subscribe(durable, 1);
        client.send("news", DestinationKind.TOPIC, 0, "n0");
        client.send("news", DestinationKind.TOPIC, 0, "n1");
        client.lazyAck(durable, client.pull(durable, 1, 1, 0));
        client.close();
        broker.close();

        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        client = new BrokerTestClient(broker.address());
        client.subscribe(durable, 2);
        assertEquals(List.of("n1"), client.pull(durable, 2, 10, 0).stream().map(Received::body).toList());
    }

    @Test
    void aLazyAcknowledgementOfAnotherConsumersDeliveryIsRefused() throws Exception {
        client.subscribe(queue, 1);
        client.subscribe(queue, 2);
        client.send("lazy", DestinationKind.QUEUE, 0, "m");
        Received r = client.pull(queue, 1, 1, 0).get(0);
        int status = assertThrows(RemotingCommandException.class, () -> client.invoke(CommandCode.LAZY_ACK,
                new AckRequest(2, queue, List.of(r.position())))).status();
        assertEquals(ErrorStatus.DELIVERY_NOT_HELD, status);
    }
}
