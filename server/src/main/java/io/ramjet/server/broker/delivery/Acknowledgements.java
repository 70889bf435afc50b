package io.ramjet.server.broker.delivery;

import io.ramjet.server.broker.durability.ConsumptionLog;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Acknowledges messages of a subscription: in its cursors at once, so they are never offered
 * again, then in the CommitLog, so they never come back after a restart. Thread-safe.
 */
public final class Acknowledgements {

    private final ConsumptionLog log;

    public Acknowledgements(ConsumptionLog log) {
        this.log = log;
    }

    /** Acknowledges the given positions; the future completes when the acknowledgement is durable. */
    public CompletableFuture<Void> ack(Subscription subscription, List<Delivery> positions) {
        for (Delivery d : positions) {
            if (d.queueId() < 0 || d.queueId() >= subscription.queueCount()) {
                throw new IllegalArgumentException("queue id " + d.queueId() + " not below " + subscription.queueCount());
            }
        }
        for (Delivery d : positions) {
            subscription.withCursor(d.queueId(), cursor -> cursor.ack(d.offset()));
        }
        return log.acked(subscription, positions);
    }

    public void ackOne(Subscription subscription, Delivery delivery) {
        ack(subscription, List.of(delivery));
    }
}
