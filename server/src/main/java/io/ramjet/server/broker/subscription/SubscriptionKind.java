package io.ramjet.server.broker.subscription;

/**
 * The five JMS ways of consuming a destination, all carried by one {@link Subscription}
 * mechanism. They differ only in who may attach, how long the state lives and where it starts.
 */
public enum SubscriptionKind {
    /** A queue's one subscription, shared by all its consumers; lives as long as the queue. */
    QUEUE(true, true),
    /** A topic consumer's own subscription: starts at the tail, dies with the consumer. */
    TOPIC(false, false),
    /** A durable topic subscription of one client id: one consumer at a time, persists. */
    DURABLE(false, true),
    /** A shared non-durable topic subscription: lives while it has consumers. */
    SHARED(true, false),
    /** A shared durable topic subscription: persists until unsubscribed. */
    SHARED_DURABLE(true, true);

    private final boolean shared;
    private final boolean durable;

    SubscriptionKind(boolean shared, boolean durable) {
        this.shared = shared;
        this.durable = durable;
    }

    /** Several consumers may attach at once and compete for its messages. */
    public boolean shared() {
        return shared;
    }

    /** Its state survives its consumers and a broker restart. */
    public boolean durable() {
        return durable;
    }
}
