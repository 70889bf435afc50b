package io.ramjet.model;

/**
 * The five JMS ways of consuming a destination, as a client names them in a
 * {@link SubscriptionRef}: a queue's shared subscription, a non-durable topic consumer's own,
 * a durable one, a shared non-durable one and a shared durable one.
 */
public enum SubscriptionType {
    QUEUE,
    TOPIC,
    DURABLE,
    SHARED,
    SHARED_DURABLE
}
