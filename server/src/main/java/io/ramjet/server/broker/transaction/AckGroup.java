package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.SubscriptionKey;

import java.util.List;
import java.util.Objects;

/**
 * Messages a transaction consumed from one subscription through one consumer: acknowledged if
 * it commits, released if not. As decoded from a record the consumer is
 * {@link ConsumedMessages#HOLDER}: the transaction itself holds them.
 */
public record AckGroup(SubscriptionKey subscription, long consumer, List<Delivery> positions) {

    public AckGroup {
        Objects.requireNonNull(subscription, "subscription");
        positions = List.copyOf(positions);
    }
}
