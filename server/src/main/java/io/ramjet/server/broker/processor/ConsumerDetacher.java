package io.ramjet.server.broker.processor;

import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Detaches a consumer from its subscription. A lost connection makes what the consumer held
 * visible again with the delivery counted; a consumer that closes gives back uncounted what the
 * application never saw and keeps what its session still holds. Either way the consumer's own
 * held pull, if any, is answered at once (with what it gathered) instead of at the end of its
 * hold, and the held pulls of its subscription are woken: other consumers get the messages.
 */
public final class ConsumerDetacher {

    private final SubscriptionTable subscriptions;
    private final HeldPulls heldPulls;

    public ConsumerDetacher(SubscriptionTable subscriptions, HeldPulls heldPulls) {
        this.subscriptions = subscriptions;
        this.heldPulls = heldPulls;
    }

    /** The consumer's connection was lost. */
    public void detach(long consumer, SubscriptionKey key) {
        Optional<Subscription> subscription = subscriptions.find(key);
        subscriptions.unsubscribeConsumer(key, consumer);
        gone(consumer, key, subscription);
    }

    /** The consumer closed; {@code kept} holds, per queue id, what its session still holds. */
    public void close(long consumer, SubscriptionKey key, Map<Integer, Set<Long>> kept) {
        Optional<Subscription> subscription = subscriptions.find(key);
        subscriptions.closeConsumer(key, consumer, kept);
        gone(consumer, key, subscription);
    }

    /** What the consumer gave back is for the other consumers of its subscription only. */
    private void gone(long consumer, SubscriptionKey key, Optional<Subscription> subscription) {
        heldPulls.consumerGone(key.storageName(), consumer);
        subscription.ifPresent(s -> heldPulls.wake(key.storageName(), s));
    }
}
