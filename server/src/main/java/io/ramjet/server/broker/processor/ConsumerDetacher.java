package io.ramjet.server.broker.processor;

import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;

/**
 * Detaches a consumer from its subscription, whether it closed or its connection was lost:
 * what it held becomes visible again with the delivery counted, and held pulls of the
 * destination are woken so other consumers get those messages.
 */
public final class ConsumerDetacher {

    private final SubscriptionTable subscriptions;
    private final HeldPulls heldPulls;

    public ConsumerDetacher(SubscriptionTable subscriptions, HeldPulls heldPulls) {
        this.subscriptions = subscriptions;
        this.heldPulls = heldPulls;
    }

    public void detach(long consumer, SubscriptionKey key) {
        if (!subscriptions.unsubscribeConsumer(key, consumer).isEmpty()) {
            heldPulls.wake(key.storageName());
        }
    }
}
