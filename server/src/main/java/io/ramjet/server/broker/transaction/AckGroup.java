package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.SubscriptionKey;

import java.util.List;
import java.util.Objects;

/** Messages a transaction consumed from one subscription: acknowledged if it commits, released if not. */
public record AckGroup(SubscriptionKey subscription, List<Delivery> positions) {

    public AckGroup {
        Objects.requireNonNull(subscription, "subscription");
        positions = List.copyOf(positions);
    }
}
