package io.ramjet.server.broker.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

class SubscriptionTableTest {

    private static final Function<SubscriptionKey, long[]> AT_ZERO = k -> new long[] {0, 0};

    private final SubscriptionTable table = new SubscriptionTable();

    private static SubscriptionKey durable(String topic, String name) {
        return new SubscriptionKey(topic, SubscriptionKind.DURABLE, "client", name);
    }

    @Test
    void allConsumersOfAQueueShareItsSubscription() {
        Subscription a = table.subscribe(SubscriptionKey.queue("q"), null, false, 1, AT_ZERO).subscription();
        Subscription b = table.subscribe(SubscriptionKey.queue("q"), null, false, 2, AT_ZERO).subscription();
        assertSame(a, b);
    }

    @Test
    void queueConsumersWithDifferentSelectorsShareTheQueuesSubscription() {
        Subscription a = table.subscribe(SubscriptionKey.queue("q"), "color = 'red'", false, 1, AT_ZERO).subscription();
        Subscription b = table.subscribe(SubscriptionKey.queue("q"), "color = 'blue'", false, 2, AT_ZERO).subscription();
        Subscription c = table.subscribe(SubscriptionKey.queue("q"), null, false, 3, AT_ZERO).subscription();
        assertSame(a, b);
        assertSame(a, c);
    }

    @Test
    void aNonDurableTopicSubscriptionDiesWithItsConsumer() {
        SubscriptionKey k = new SubscriptionKey("t", SubscriptionKind.TOPIC, null, "consumer-1");
        table.subscribe(k, null, false, 1, AT_ZERO);
        table.unsubscribeConsumer(k, 1);
        assertTrue(table.find(k).isEmpty());
    }

    @Test
    void aDurableSubscriptionOutlivesItsConsumer() {
        SubscriptionKey k = durable("t", "d");
        table.subscribe(k, null, false, 1, AT_ZERO);
        table.unsubscribeConsumer(k, 1);
        assertTrue(table.find(k).isPresent());
    }

    @Test
    void aSecondConsumerOnAnUnsharedDurableSubscriptionIsRefused() {
        table.subscribe(durable("t", "d"), null, false, 1, AT_ZERO);
        assertThrows(SubscriptionConflictException.class, () -> table.subscribe(durable("t", "d"), null, false, 2, AT_ZERO));
    }

    @Test
    void anotherSelectorReplacesAnIdleDurableSubscription() {
        Subscription old = table.subscribe(durable("t", "d"), "a = 1", false, 1, AT_ZERO).subscription();
        table.unsubscribeConsumer(durable("t", "d"), 1);
        SubscriptionTable.Change change = table.subscribe(durable("t", "d"), "a = 2", false, 2, AT_ZERO);
        assertTrue(change.created());
        assertSame(old, change.replaced());
        assertEquals("a = 2", change.subscription().selector());
    }

    @Test
    void anotherTopicReplacesAnIdleDurableSubscriptionOfTheSameName() {
        table.subscribe(durable("t1", "d"), null, false, 1, AT_ZERO);
        table.unsubscribeConsumer(durable("t1", "d"), 1);
        SubscriptionTable.Change change = table.subscribe(durable("t2", "d"), null, false, 2, AT_ZERO);
        assertNotNull(change.replaced());
        assertEquals("t2", change.subscription().key().destination());
    }

    @Test
    void sharedSubscriptionWithOtherTermsIsRefusedWhileInUse() {
        SubscriptionKey k = new SubscriptionKey("t", SubscriptionKind.SHARED, null, "s");
        table.subscribe(k, "a = 1", false, 1, AT_ZERO);
        assertThrows(SubscriptionConflictException.class, () -> table.subscribe(k, "a = 2", false, 2, AT_ZERO));
    }

    @Test
    void sameTermsReuseASharedSubscription() {
        SubscriptionKey k = new SubscriptionKey("t", SubscriptionKind.SHARED_DURABLE, null, "s");
        SubscriptionTable.Change first = table.subscribe(k, "a = 1", false, 1, AT_ZERO);
        SubscriptionTable.Change second = table.subscribe(k, "a = 1", false, 2, AT_ZERO);
        assertTrue(first.created());
        assertFalse(second.created());
        assertNull(second.replaced());
    }

    @Test
    void unsubscribeIsRefusedWhileAConsumerIsActive() {
        table.subscribe(durable("t", "d"), null, false, 1, AT_ZERO);
        assertThrows(SubscriptionConflictException.class, () -> table.deleteDurable("client", "d"));
        table.unsubscribeConsumer(durable("t", "d"), 1);
        assertTrue(table.deleteDurable("client", "d").isPresent());
        assertTrue(table.deleteDurable("client", "d").isEmpty());
    }

    @Test
    void newSubscriptionsStartWhereTheBrokerSays() {
        Subscription s = table.subscribe(SubscriptionKey.queue("q"), null, false, 1, k -> new long[] {5, 9}).subscription();
        assertEquals(5, s.lowWaterMarks()[0]);
        assertEquals(9, s.lowWaterMarks()[1]);
    }
}
