package io.ramjet.protocol.command;

import io.ramjet.model.SubscriptionRef;

import java.util.Objects;

/**
 * Header of {@link CommandCode#PULL}: up to {@code maxMessages} messages for a subscribed
 * consumer. When none is available the broker holds the request up to {@code holdMillis} and
 * answers as soon as one arrives, or empty when the hold ends. Use a request timeout longer than
 * the hold.
 *
 * @param consumerId   the consumer, as subscribed
 * @param subscription its subscription
 * @param maxMessages  at least 1
 * @param holdMillis   0 for an immediate answer
 */
public record PullRequest(long consumerId, SubscriptionRef subscription, int maxMessages, long holdMillis) {

    public PullRequest {
        Objects.requireNonNull(subscription, "subscription");
        if (maxMessages < 1) {
            throw new IllegalArgumentException("maxMessages " + maxMessages);
        }
        if (holdMillis < 0) {
            throw new IllegalArgumentException("holdMillis " + holdMillis);
        }
    }
}
