package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.message.TagSignature;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Selectors at the broker, seen through a bare client that sends only the selector text (no
 * masks, no signatures, no client-side check): the broker tags each message from its header
 * section, skips entries by mask, and evaluates the selector on what it reads.
 */
class TagFilterTest extends BrokerTestBase {

    @Test
    void queueConsumersWithMaskedSelectorsEachGetExactlyTheirOwn() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("paint");
        client.subscribe(queue, 1, "color = 'red'");
        client.subscribe(queue, 2, "color = 'blue'");
        client.sendWithProperties("paint", DestinationKind.QUEUE, "r1", "color", "red");
        client.sendWithProperties("paint", DestinationKind.QUEUE, "b1", "color", "blue");
        client.sendWithProperties("paint", DestinationKind.QUEUE, "r2", "color", "red");
        assertEquals(List.of("r1", "r2"), bodies(client.pull(queue, 1, 10, 0)));
        assertEquals(List.of("b1"), bodies(client.pull(queue, 2, 10, 0)));
    }

    @Test
    void queueConsumersWithSelectorsWithoutMasksSplitTheMessagesAtTheBroker() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("ranges");
        client.subscribe(queue, 1, "n < 50");
        client.subscribe(queue, 2, "n >= 50");
        List<String> low = new ArrayList<>(), high = new ArrayList<>();
        for (int n = 0; n < 100; n++) {
            client.sendWithProperties("ranges", DestinationKind.QUEUE, "m" + n, "n", n);
            (n < 50 ? low : high).add("m" + n);
        }
        // consumer 1 pulls first and sees every message: refusing one must leave it for consumer 2
        List<Received> first = client.pull(queue, 1, 200, 0);
        List<Received> second = client.pull(queue, 2, 200, 0);
        assertEquals(low, bodies(first));
        assertEquals(high, bodies(second));
        assertTrue(first.stream().allMatch(r -> r.deliveryCount() == 1)
                && second.stream().allMatch(r -> r.deliveryCount() == 1), "a refusal counts no delivery");
        assertEquals(List.of(), client.pull(queue, 1, 200, 0), "nothing is offered twice");
    }

    @Test
    void collidingSignaturesStillGiveEachConsumerExactlyItsOwn() throws Exception {
        String twin = colliding("red");
        SubscriptionRef queue = SubscriptionRef.queue("twins");
        client.subscribe(queue, 1, "color = 'red'");
        client.subscribe(queue, 2, "color = '" + twin + "'");
        List<String> reds = new ArrayList<>(), twins = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            boolean red = i % 2 == 0;
            client.sendWithProperties("twins", DestinationKind.QUEUE, "m" + i, "color", red ? "red" : twin);
            (red ? reds : twins).add("m" + i);
        }
        long before = broker.recordsReadForDelivery();
        assertEquals(reds, bodies(client.pull(queue, 1, 100, 0)));
        assertEquals(20, broker.recordsReadForDelivery() - before, "the twins pass the mask: read, then refused");
        assertEquals(twins, bodies(client.pull(queue, 2, 100, 0)));
    }

    @Test
    void withAMaskTheBrokerReadsAboutATenthOfTheRecords() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("spread");
        client.subscribe(queue, 1, "color = 'c3'");
        sendTenColors("spread", 1_000);
        long before = broker.recordsReadForDelivery();
        List<Received> got = client.pull(queue, 1, 2_000, 0);
        long read = broker.recordsReadForDelivery() - before;
        assertEquals(100, got.size(), "exactly the c3 messages arrive");
        assertTrue(got.stream().allMatch(r -> r.body().equals("c3")));
        assertTrue(read >= 100 && read < 200, read + " records read for 100 matching: false positives stay few");
    }

    @Test
    void withoutASelectorTheBrokerReadsEveryRecord() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("spread-all");
        client.subscribe(queue, 1);
        sendTenColors("spread-all", 1_000);
        long before = broker.recordsReadForDelivery();
        assertEquals(1_000, client.pull(queue, 1, 2_000, 0).size());
        assertEquals(1_000, broker.recordsReadForDelivery() - before);
    }

    @Test
    void withASelectorWithoutMaskTheBrokerReadsEveryRecordButDeliversOnlyMatches() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("spread-range");
        client.subscribe(queue, 1, "color LIKE 'c3%'");
        sendTenColors("spread-range", 1_000);
        long before = broker.recordsReadForDelivery();
        List<Received> got = client.pull(queue, 1, 2_000, 0);
        assertEquals(1_000, broker.recordsReadForDelivery() - before);
        assertEquals(100, got.size());
        assertTrue(got.stream().allMatch(r -> r.body().equals("c3")));
    }

    @Test
    void aTopicSubscriptionAcknowledgesAwayWhatItsSelectorRefuses() throws Exception {
        SubscriptionRef durable = new SubscriptionRef("palette", SubscriptionType.DURABLE, "client", "sub");
        String selector = "color IN ('red', 'blue') OR n > 5";
        client.subscribe(durable, 1, selector);
        client.sendWithProperties("palette", DestinationKind.TOPIC, "g", "color", "green", "n", 1);
        client.sendWithProperties("palette", DestinationKind.TOPIC, "b", "color", "blue", "n", 1);
        client.sendWithProperties("palette", DestinationKind.TOPIC, "g9", "color", "green", "n", 9);
        assertEquals(List.of("b", "g9"), bodies(client.pull(durable, 1, 10, 0)));
        client.closeConsumer(durable, 1);
        client.subscribe(durable, 2, selector);
        long before = broker.recordsReadForDelivery();
        assertEquals(List.of("b", "g9"), bodies(client.pull(durable, 2, 10, 0)), "what it held comes again");
        assertEquals(2, broker.recordsReadForDelivery() - before, "the refused message was acknowledged");
    }

    @Test
    void reSubscribingWithAnotherSelectorReplacesTheDurableSubscription() throws Exception {
        SubscriptionRef durable = new SubscriptionRef("prices", SubscriptionType.DURABLE, "client", "sub");
        client.subscribe(durable, 1, "color = 'red'");
        client.sendWithProperties("prices", DestinationKind.TOPIC, "old-red", "color", "red");
        client.sendWithProperties("prices", DestinationKind.TOPIC, "old-blue", "color", "blue");
        client.closeConsumer(durable, 1);
        client.subscribe(durable, 2, "color = 'blue'");
        client.sendWithProperties("prices", DestinationKind.TOPIC, "new-red", "color", "red");
        client.sendWithProperties("prices", DestinationKind.TOPIC, "new-blue", "color", "blue");
        assertEquals(List.of("new-blue"), bodies(client.pull(durable, 2, 10, 0)),
                "a new subscription, from the tail, with the new selector");
    }

    @Test
    void theBrokerEvaluatesJmsxDeliveryCountAsTheClientWillSeeIt() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("retries");
        client.subscribe(queue, 1);
        client.subscribe(queue, 2, "JMSXDeliveryCount > 1");
        client.sendWithProperties("retries", DestinationKind.QUEUE, "m", "n", 1);
        assertEquals(List.of(), client.pull(queue, 2, 10, 0), "a first delivery has count 1");
        client.release(queue, 1, client.pull(queue, 1, 10, 0).get(0), true);
        List<Received> again = client.pull(queue, 2, 10, 0);
        assertEquals(List.of("m"), bodies(again));
        assertEquals(2, again.get(0).deliveryCount());
    }

    @Test
    void aMessageWithoutAHeaderSectionHasNoProperties() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("raw");
        client.subscribe(queue, 1, "color = 'red'");
        client.subscribe(queue, 2, "color IS NULL");
        client.send("raw", DestinationKind.QUEUE, 0, "opaque");
        assertEquals(List.of(), client.pull(queue, 1, 10, 0));
        assertEquals(List.of("opaque"), bodies(client.pull(queue, 2, 10, 0)));
    }

    @Test
    void anInvalidSelectorIsRefusedWithTheParsersMessageAndTheBrokerServesOn() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("strict");
        RemotingCommandException e = assertThrows(RemotingCommandException.class,
                () -> client.subscribe(queue, 1, "color = 'red' AND AND"));
        assertEquals(ErrorStatus.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("invalid selector \"color = 'red' AND AND\" at position 19"),
                e.getMessage());
        client.subscribe(queue, 2, "color = 'red'");
        client.sendWithProperties("strict", DestinationKind.QUEUE, "r", "color", "red");
        assertEquals(List.of("r"), bodies(client.pull(queue, 2, 10, 0)));
    }

    private void sendTenColors(String queue, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            String color = "c" + (i % 10);
            client.sendWithProperties(queue, DestinationKind.QUEUE, color, "color", color, "n", i);
        }
    }

    /** A color other than {@code color} whose tag sets the same signature bits: a forced false positive. */
    private static String colliding(String color) {
        long mask = TagSignature.DEFAULT.maskOf(TagSignature.stringTag("color", color));
        for (int i = 0; ; i++) {
            String candidate = "twin" + i;
            if (TagSignature.DEFAULT.maskOf(TagSignature.stringTag("color", candidate)) == mask) {
                return candidate;
            }
        }
    }

    private static List<String> bodies(List<Received> received) {
        return received.stream().map(Received::body).toList();
    }
}
