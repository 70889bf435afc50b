package io.ramjet.server.broker.processor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.server.broker.delivery.Fetched;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConsumerDetacherTest {

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HeldPulls held = new HeldPulls(executor, timer);
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final ConsumerDetacher detacher = new ConsumerDetacher(subscriptions, held);

    @AfterEach
    void stop() {
        held.expireAll();
        executor.shutdownNow();
        timer.shutdownNow();
    }

    @Test
    void aClosingConsumerWakesTheOtherConsumersOfItsSubscriptionAndNoOtherSubscriptionsPulls() {
        SubscriptionKey sharedKey = new SubscriptionKey("T", SubscriptionKind.SHARED_DURABLE, null, "shared");
        Subscription shared = subscribe(sharedKey, 1);
        subscribe(sharedKey, 4);
        AtomicInteger[] others = new AtomicInteger[20];
        for (int i = 0; i < others.length; i++) {
            SubscriptionKey key = new SubscriptionKey("T", SubscriptionKind.DURABLE, "client-" + i, "sub");
            others[i] = hold(key, subscribe(key, 100 + i), 100 + i);
        }
        // held last: a pass over every pull of the topic would serve the others before it
        AtomicInteger sameSubscription = hold(sharedKey, shared, 4);

        detacher.close(1, sharedKey, Map.of());

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .untilAsserted(() -> assertEquals(2, sameSubscription.get(),
                        "the other consumer of the subscription looked again for what the closed one gave back"));
        for (AtomicInteger other : others) {
            assertEquals(1, other.get(), "another subscription's pull looked only when it came");
        }
    }

    private Subscription subscribe(SubscriptionKey key, long consumer) {
        return subscriptions.subscribe(key, null, false, consumer, k -> new long[] {0}).subscription();
    }

    /** Holds a pull of the consumer that finds nothing; returns how often it looked. */
    private AtomicInteger hold(SubscriptionKey key, Subscription subscription, long consumer) {
        AtomicInteger looked = new AtomicInteger();
        held.pull(key.storageName(), subscription, consumer, 10, 60_000, (max, bytes) -> {
            looked.incrementAndGet();
            return Fetched.nothing();
        });
        assertEquals(1, looked.get(), "a pull looks once when it comes");
        return looked;
    }
}
