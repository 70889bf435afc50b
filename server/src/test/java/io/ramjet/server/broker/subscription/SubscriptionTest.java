package io.ramjet.server.broker.subscription;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SubscriptionTest {

    @Test
    void aDurableSubscriptionTakesOneConsumerAtATime() {
        Subscription s = new Subscription(new SubscriptionKey("t", SubscriptionKind.DURABLE, "c1", "d"), null, false, new long[] {0});
        assertTrue(s.attach(1));
        assertFalse(s.attach(2));
        s.detach(1);
        assertTrue(s.attach(2));
    }

    @Test
    void aSharedSubscriptionTakesManyConsumers() {
        Subscription s = new Subscription(new SubscriptionKey("t", SubscriptionKind.SHARED, null, "s"), null, false, new long[] {0});
        assertTrue(s.attach(1));
        assertTrue(s.attach(2));
        assertEquals(2, s.consumers().size());
    }

    @Test
    void detachingAConsumerRedeliversWhatItHeldWithACountedDelivery() {
        Subscription s = new Subscription(SubscriptionKey.queue("q"), null, false, new long[] {0, 0});
        s.attach(1);
        s.withCursor(1, c -> c.claim(0, 1));
        var released = s.detach(1);
        assertEquals(1, released.size());
        assertEquals(1, released.get(0).queueId());
        assertEquals(2, s.withCursor(1, c -> c.claim(0, 2)).deliveryCount());
    }

    @Test
    void lowWaterMarksArePerMessageQueue() {
        Subscription s = new Subscription(SubscriptionKey.queue("q"), null, false, new long[] {3, 7});
        s.withCursor(0, c -> c.claim(3, 1));
        s.withCursor(0, c -> c.ack(3));
        assertArrayEquals(new long[] {4, 7}, s.lowWaterMarks());
    }

    @Test
    void termsCompareSelectorAndNoLocal() {
        Subscription s = new Subscription(SubscriptionKey.queue("q"), "a = 1", false, new long[] {0});
        assertTrue(s.sameTerms(" a = 1 ", false));
        assertFalse(s.sameTerms("a = 2", false));
        assertFalse(s.sameTerms("a = 1", true));
        assertTrue(new Subscription(SubscriptionKey.queue("q"), "", false, new long[] {0}).sameTerms(null, false));
    }
}
