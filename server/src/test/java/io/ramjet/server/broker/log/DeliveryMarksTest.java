package io.ramjet.server.broker.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeliveryMarksTest {

    @TempDir
    Path dir;

    @Test
    void aClaimOnAQueueThatNoReplayedMarkCoveredIsMarkedToo() {
        try (MessageStore store = MessageStore.open(StoreConfig.defaults(dir).withSegmentSize(1 << 20))) {
            DeliveryMarks marks = new DeliveryMarks(1);
            SubscriptionKey key = SubscriptionKey.queue("q");
            marks.raise(key, 0, 5);
            marks.start(store);
            Subscription s = new Subscription(key, null, false, new long[4]);
            marks.claimed(s, 3, 7);
            assertArrayEquals(new long[] {5, 0, 0, 8}, marks.of(key, 4),
                    "a crash now counts offset 7 of queue 3 as delivered");
        }
    }
}
