package io.ramjet.provider.client;

import io.ramjet.protocol.command.SubscriptionRef;
import io.ramjet.protocol.command.SubscriptionType;
import java.util.Objects;

/**
 * A consumer as the broker knows it: its random 64-bit id, the subscription it reads, the
 * selector text (null for none; the broker derives its tag masks from it), and the broker it is
 * attached to (null until subscribed). A consumer of a destination that lives on several
 * brokers has one attachment per broker, all with the same id: each delivery carries the one
 * it came through, so its ack or release goes back to that broker.
 */
public record ConsumerInfo(long consumerId, SubscriptionRef subscription, String selector, boolean noLocal,
                           String brokerAddress) {
    public ConsumerInfo {
        Objects.requireNonNull(subscription, "subscription");
    }

    public boolean isQueue() {
        return subscription.type() == SubscriptionType.QUEUE;
    }

    public ConsumerInfo attachedTo(String address) {
        return new ConsumerInfo(consumerId, subscription, selector, noLocal, address);
    }
}
