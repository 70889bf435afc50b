package io.ramjet.server.broker.subscription;

/**
 * A message queue offset handed to a consumer, with the JMS delivery count it carries:
 * {@code deliveryCount} is 1 on the first delivery and {@code redelivered} is true after any
 * counted delivery before this one.
 */
public record Delivery(int queueId, long offset, int deliveryCount) {

    public boolean redelivered() {
        return deliveryCount > 1;
    }
}
