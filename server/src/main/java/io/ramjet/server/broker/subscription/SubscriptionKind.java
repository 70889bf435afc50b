package io.ramjet.server.broker.subscription;

/**
 * The five JMS ways of consuming a destination, all carried by one {@link Subscription}
 * mechanism. They differ only in who may attach, how long the state lives and where it starts.
 * Each has a fixed {@link #code()}, the byte that stands for it in the broker's records and
 * snapshot: the codes are the ordinals the first format wrote, so they never change.
 */
public enum SubscriptionKind {
    /** A queue's one subscription, shared by all its consumers; lives as long as the queue. */
    QUEUE(0, true, true),
    /** A topic consumer's own subscription: starts at the tail, dies with the consumer. */
    TOPIC(1, false, false),
    /** A durable topic subscription of one client id: one consumer at a time, persists. */
    DURABLE(2, false, true),
    /** A shared non-durable topic subscription: lives while it has consumers. */
    SHARED(3, true, false),
    /** A shared durable topic subscription: persists until unsubscribed. */
    SHARED_DURABLE(4, true, true);

    private final int code;
    private final boolean shared;
    private final boolean durable;

    SubscriptionKind(int code, boolean shared, boolean durable) {
        this.code = code;
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

    /** The byte standing for this kind on disk. */
    public int code() {
        return code;
    }

    /** @throws IllegalArgumentException for a code no kind has */
    public static SubscriptionKind ofCode(int code) {
        for (SubscriptionKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown subscription kind code " + code);
    }
}
