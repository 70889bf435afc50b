package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ExpirationTest {

    private static final SubscriptionRef QUEUE = SubscriptionRef.queue("perishable");

    @TempDir
    Path dataDir;

    private Broker broker;
    private BrokerTestClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        client = new BrokerTestClient(broker.address());
        client.subscribe(QUEUE, 1);
    }

    @AfterEach
    void stop() {
        client.close();
        broker.close();
    }

    private static byte[] section(long expiration) {
        return MessagePropertiesCodec.encode(new MessageHeaders().expiration(expiration));
    }

    @Test
    void messageThatExpiresWhileQueuedIsNeverDelivered() throws Exception {
        long expiration = System.currentTimeMillis() + 200;
        client.sendRaw("perishable", DestinationKind.QUEUE, 0, section(expiration), "stale", expiration);
        client.sendRaw("perishable", DestinationKind.QUEUE, 0, section(0), "fresh", 0);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> System.currentTimeMillis() > expiration);
        List<Received> got = client.pull(QUEUE, 1, 10, 0);
        assertEquals(List.of("fresh"), got.stream().map(Received::body).toList());
    }

    @Test
    void messageExpiredOnArrivalIsNotStored() throws Exception {
        long past = System.currentTimeMillis() - 1;
        assertEquals(-1, client.sendRaw("perishable", DestinationKind.QUEUE, 0, section(past), "dead", past)
                .queueOffset());
        assertEquals(List.of(), client.pull(QUEUE, 1, 10, 0));
    }
}
