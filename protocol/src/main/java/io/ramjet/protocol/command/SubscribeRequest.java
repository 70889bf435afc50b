package io.ramjet.protocol.command;

import io.ramjet.model.SubscriptionRef;

import java.util.Objects;

/**
 * Header of {@link CommandCode#SUBSCRIBE}: attaches a consumer to a subscription, creating,
 * sharing or replacing it as Jakarta Messaging says. Refusals answer
 * {@link ErrorStatus#SUBSCRIPTION_CONFLICT} or {@link ErrorStatus#UNKNOWN_DESTINATION}.
 *
 * @param subscription which subscription
 * @param selector     the message selector, or null; the broker compiles it for this consumer
 *                     (BAD_REQUEST when it does not parse), filters with its tag masks and
 *                     evaluates it on what it reads. The client still checks the whole selector.
 * @param noLocal      skip messages of the consumer's own connection
 * @param consumerId   the consumer, unique on the broker (the client picks a random 64-bit id)
 */
public record SubscribeRequest(SubscriptionRef subscription, String selector, boolean noLocal, long consumerId) {

    public SubscribeRequest {
        Objects.requireNonNull(subscription, "subscription");
    }
}
