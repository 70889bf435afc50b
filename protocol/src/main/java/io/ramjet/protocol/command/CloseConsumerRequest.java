package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#CLOSE_CONSUMER}: detaches a consumer; what it held becomes
 * visible again with the delivery counted. A non-durable subscription dies with its last consumer.
 */
public record CloseConsumerRequest(long consumerId, SubscriptionRef subscription) {

    public CloseConsumerRequest {
        Objects.requireNonNull(subscription, "subscription");
    }
}
