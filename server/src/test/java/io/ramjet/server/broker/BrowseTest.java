package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.command.BrowseRequest;
import io.ramjet.protocol.command.BrowseResponse;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import io.ramjet.server.broker.delivery.QueueBrowse;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrowseTest extends BrokerTestBase {

    /** A browsed message: body text and the count it would be delivered with. */
    private record Browsed(String body, int deliveryCount) {
    }

    /** Every page of a browse, walked with pages of {@code pageSize}. */
    private List<Browsed> browseAll(String queue, int pageSize, String selector) throws Exception {
        List<Browsed> out = new ArrayList<>();
        int queueId = 0;
        long offset = 0;
        for (int pages = 0; pages < 1_000; pages++) {
            Frame response = client.invoke(CommandCode.BROWSE, new BrowseRequest(queue, queueId, offset, pageSize, selector));
            BrowseResponse page = response.header(BrowseResponse.class);
            assertTrue(page.messages().size() <= pageSize, "a page holds at most what was asked");
            byte[] body = response.bodyBytes();
            int at = 0;
            for (PulledMessage m : page.messages()) {
                MessageRecordView record = MessageRecordView.wrap(ByteBuffer.wrap(body, at, m.recordSize()).slice());
                ByteBuffer bytes = record.body();
                byte[] text = new byte[bytes.remaining()];
                bytes.get(text);
                out.add(new Browsed(new String(text, StandardCharsets.UTF_8), m.deliveryCount()));
                at += m.recordSize();
            }
            if (page.end()) {
                return out;
            }
            queueId = page.nextQueueId();
            offset = page.nextOffset();
        }
        throw new AssertionError("the browse never ended");
    }

    private static List<String> bodies(List<Browsed> browsed) {
        return browsed.stream().map(Browsed::body).toList();
    }

    @Test
    void aQueueNoConsumerEverSubscribedToIsBrowsedWhole() throws Exception {
        for (int i = 0; i < 5; i++) {
            client.send("fresh", DestinationKind.QUEUE, i % 2, "m" + i);
        }
        List<Browsed> all = browseAll("fresh", 64, null);
        assertEquals(List.of("m0", "m2", "m4", "m1", "m3"), bodies(all), "queue by queue, offset order within each");
        assertTrue(all.stream().allMatch(b -> b.deliveryCount() == 1));
    }

    @Test
    void smallPagesWalkTheSameMessages() throws Exception {
        for (int i = 0; i < 7; i++) {
            client.send("paged", DestinationKind.QUEUE, i % 2, "m" + i);
        }
        assertEquals(bodies(browseAll("paged", 64, null)), bodies(browseAll("paged", 2, null)));
    }

    @Test
    void browsingShowsInFlightMessagesHidesAcknowledgedOnesAndDisturbsNoConsumer() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("busy");
        client.subscribe(queue, 1);
        for (int i = 0; i < 4; i++) {
            client.send("busy", DestinationKind.QUEUE, 0, "m" + i);
        }
        List<Received> held = client.pull(queue, 1, 2, 0);
        client.ack(queue, List.of(held.get(0)));
        List<Browsed> browsed = browseAll("busy", 64, null);
        assertEquals(List.of("m1", "m2", "m3"), bodies(browsed));
        browseAll("busy", 1, null);
        List<Received> rest = client.pull(queue, 1, 10, 0);
        assertEquals(List.of("m2", "m3"), rest.stream().map(Received::body).toList(),
                "the browse claimed nothing: every message not in flight is still offered");
        assertTrue(rest.stream().allMatch(r -> r.deliveryCount() == 1), "the browse counted no delivery");
    }

    @Test
    void aMessageReleasedWithACountedDeliveryIsBrowsedWithThatCount() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("counted");
        client.subscribe(queue, 1);
        client.send("counted", DestinationKind.QUEUE, 0, "m");
        client.release(queue, 1, client.pull(queue, 1, 1, 0).get(0), true);
        assertEquals(List.of(new Browsed("m", 2)), browseAll("counted", 64, null));
    }

    @Test
    void theSelectorIsAppliedAtTheBroker() throws Exception {
        client.sendWithProperties("selected", DestinationKind.QUEUE, "red", "color", "red", "n", 1);
        client.sendWithProperties("selected", DestinationKind.QUEUE, "blue", "color", "blue", "n", 2);
        client.sendWithProperties("selected", DestinationKind.QUEUE, "green", "color", "green", "n", 3);
        assertEquals(List.of("blue"), bodies(browseAll("selected", 64, "color = 'blue'")), "an equality: by tag mask");
        assertEquals(List.of("blue", "green"), bodies(browseAll("selected", 64, "n > 1")), "a range: evaluated");
    }

    @Test
    void anInvalidSelectorIsABadRequest() throws Exception {
        RemotingCommandException e = assertThrows(RemotingCommandException.class, () -> client.invoke(
                CommandCode.BROWSE, new BrowseRequest("any", 0, 0, 1, "color = ")));
        assertEquals(ErrorStatus.BAD_REQUEST, e.status());
        assertEquals(List.of(), browseAll("any", 64, null), "the broker keeps serving");
    }

    @Test
    void aPageStopsBeforeItsRecordsWouldPassTheByteBudget() throws Exception {
        String big = "x".repeat(QueueBrowse.PAGE_BYTES / 2 + 1000);
        for (int i = 0; i < 3; i++) {
            client.send("big", DestinationKind.QUEUE, 0, i + big);
        }
        Frame first = client.invoke(CommandCode.BROWSE, new BrowseRequest("big", 0, 0, 64, null));
        BrowseResponse page = first.header(BrowseResponse.class);
        assertEquals(1, page.messages().size(), "a second record would pass the budget");
        assertEquals(3, browseAll("big", 64, null).size(), "the next pages hold the rest");
    }

    @Test
    void anUnknownQueueIsOneEmptyLastPage() throws Exception {
        assertEquals(List.of(), browseAll("nobody-made-this", 64, null));
    }
}
