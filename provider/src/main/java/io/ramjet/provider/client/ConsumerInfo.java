package io.ramjet.provider.client;

import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import java.util.Objects;

/**
 * A consumer as the broker knows it: its random 64-bit id, the subscription it reads, the
 * selector text (null for none; the broker derives its tag masks from it), and the broker it is
 * attached to (null until subscribed). A JMS consumer has one attachment per broker that hosts
 * its destination, and a new one each time it subscribes again there (after a broker restart
 * or a lost connection), each with an id of its own: each delivery carries the attachment it
 * came through, so its ack or release goes back to that broker under that id, and the broker
 * refuses it once that attachment's deliveries are gone.
 */
public record ConsumerInfo(long consumerId, SubscriptionRef subscription, String selector, boolean noLocal,
                           String brokerAddress) {
    public ConsumerInfo {
        Objects.requireNonNull(subscription, "subscription");
    }

    public boolean isQueue() {
        return subscription.type() == SubscriptionType.QUEUE;
    }

    /**
     * Whether this consumer is its subscription's only one: a topic consumer's own subscription
     * or a non-shared durable one (JMS allows one active consumer on it), so no other consumer
     * of the subscription could take what this one prefetches.
     */
    public boolean soleConsumer() {
        SubscriptionType type = subscription.type();
        return type == SubscriptionType.TOPIC || type == SubscriptionType.DURABLE;
    }

    public ConsumerInfo attachedTo(String address) {
        return new ConsumerInfo(consumerId, subscription, selector, noLocal, address);
    }

    public ConsumerInfo withConsumerId(long id) {
        return new ConsumerInfo(id, subscription, selector, noLocal, brokerAddress);
    }
}
