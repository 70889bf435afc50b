package io.ramjet.server.broker.subscription;

/**
 * A subscribe or unsubscribe that Jakarta Messaging forbids in the current state: a second
 * consumer on an unshared durable subscription, a shared subscription asked for with other
 * terms while it has consumers, or an unsubscribe while consumers are active. The client turns
 * it into the JMS exception the spec names.
 */
public final class SubscriptionConflictException extends RuntimeException {

    public SubscriptionConflictException(String message) {
        super(message);
    }
}
