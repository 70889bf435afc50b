package io.ramjet.server.broker.subscription;

/**
 * A message queue offset handed to a consumer, with the JMS delivery count it carries:
 * {@code deliveryCount} is 1 on the first delivery and {@code redelivered} is true when it is
 * more. {@code countedBefore} is how many earlier deliveries the broker saw end (a nack, a
 * {@code recover()}, a rollback, a lost consumer): what the dead-letter limit counts. It is
 * {@code deliveryCount - 1} except for a message claimed before a crash, which may have been
 * delivered and so carries JMSRedelivered and a count of at least 2, but counts none it cannot
 * prove.
 */
public record Delivery(int queueId, long offset, int deliveryCount, int countedBefore) {

    /** A delivery whose every earlier delivery counts. */
    public Delivery(int queueId, long offset, int deliveryCount) {
        this(queueId, offset, deliveryCount, Math.max(0, deliveryCount - 1));
    }

    public boolean redelivered() {
        return deliveryCount > 1;
    }
}
