package io.ramjet.model;

import java.util.Objects;

/**
 * Names a subscription on a broker. A queue's is its destination name; a durable or shared one
 * is client id (null allowed for shared ones, as JMS 2.0 says) plus subscription name; a
 * non-durable topic consumer's own subscription takes the consumer id, in decimal, as its name.
 *
 * @param destination the queue or topic name
 * @param type        how the destination is consumed; QUEUE for a queue, any other for a topic
 * @param clientId    the connection's client id, or null
 * @param name        the subscription name
 */
public record SubscriptionRef(String destination, SubscriptionType type, String clientId, String name) {

    public SubscriptionRef {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    public static SubscriptionRef queue(String queue) {
        return new SubscriptionRef(queue, SubscriptionType.QUEUE, null, queue);
    }

    public static SubscriptionRef topic(String topic, long consumerId) {
        return new SubscriptionRef(topic, SubscriptionType.TOPIC, null, Long.toString(consumerId));
    }

    public DestinationKind destinationKind() {
        return type == SubscriptionType.QUEUE ? DestinationKind.QUEUE : DestinationKind.TOPIC;
    }
}
