package io.ramjet.server.broker;

import io.ramjet.protocol.command.DestinationKind;
import io.ramjet.protocol.command.SubscriptionRef;
import io.ramjet.protocol.message.TagSignature;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TagFilterTest {

    private static final long RED = TagSignature.DEFAULT.maskOf(TagSignature.stringTag("color", "red"));
    private static final long BLUE = TagSignature.DEFAULT.maskOf(TagSignature.stringTag("color", "blue"));

    @TempDir
    Path dataDir;

    private Broker broker;
    private BrokerTestClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        client = new BrokerTestClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.close();
    }

    @Test
    void queueConsumersGetOnlyWhatTheirMasksAllowAndNothingIsLost() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("paint");
        client.subscribe(queue, 1, List.of(RED));
        client.subscribe(queue, 2, List.of(BLUE));
        client.sendTagged("paint", DestinationKind.QUEUE, "r1", RED);
        client.sendTagged("paint", DestinationKind.QUEUE, "b1", BLUE);
        client.sendTagged("paint", DestinationKind.QUEUE, "r2", RED);
        assertEquals(List.of("r1", "r2"), bodies(client.pull(queue, 1, 10, 0)));
        assertEquals(List.of("b1"), bodies(client.pull(queue, 2, 10, 0)));
    }

    @Test
    void topicSubscriptionSkipsWhatItsMasksExclude() throws Exception {
        SubscriptionRef sub = SubscriptionRef.topic("palette", 1);
        client.subscribe(sub, 1, List.of(RED, BLUE));
        client.sendTagged("palette", DestinationKind.TOPIC, "g", TagSignature.DEFAULT.maskOf("color='green'"));
        client.sendTagged("palette", DestinationKind.TOPIC, "b", BLUE);
        assertEquals(List.of("b"), bodies(client.pull(sub, 1, 10, 0)));
    }

    private static List<String> bodies(List<Received> received) {
        return received.stream().map(Received::body).toList();
    }

    @Test
    void withAMaskTheBrokerReadsAboutATenthOfTheRecords() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("spread");
        long c3 = TagSignature.DEFAULT.maskOf(TagSignature.stringTag("color", "c3"));
        client.subscribe(queue, 1, List.of(c3));
        for (int i = 0; i < 1_000; i++) {
            String color = "c" + (i % 10);
            client.sendTagged("spread", DestinationKind.QUEUE, color, TagSignature.DEFAULT.maskOf(TagSignature.stringTag("color", color)));
        }
        long before = broker.recordsReadForDelivery();
        List<Received> got = client.pull(queue, 1, 2_000, 0);
        long read = broker.recordsReadForDelivery() - before;
        List<Received> matching = got.stream().filter(r -> r.body().equals("c3")).toList();
        assertEquals(100, matching.size(), "every c3 message arrives");
        assertEquals(got.size(), read, "only what is delivered is read");
        assertTrue(read < 200, read + " records read for 100 matching: false positives stay few");
    }

    @Test
    void withoutAMaskTheBrokerReadsEveryRecord() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("spread-all");
        client.subscribe(queue, 1, List.of());
        for (int i = 0; i < 1_000; i++) {
            String color = "c" + (i % 10);
            client.sendTagged("spread-all", DestinationKind.QUEUE, color, TagSignature.DEFAULT.maskOf(TagSignature.stringTag("color", color)));
        }
        long before = broker.recordsReadForDelivery();
        List<Received> got = client.pull(queue, 1, 2_000, 0);
        assertEquals(1_000, got.size());
        assertEquals(1_000, broker.recordsReadForDelivery() - before);
    }
}
