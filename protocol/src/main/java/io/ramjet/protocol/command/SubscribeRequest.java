package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#SUBSCRIBE}: attaches a consumer to a subscription, creating,
 * sharing or replacing it as Jakarta Messaging says. Refusals answer
 * {@link ErrorStatus#SUBSCRIPTION_CONFLICT} or {@link ErrorStatus#UNKNOWN_DESTINATION}.
 *
 * @param subscription which subscription
 * @param selector     the message selector, or null
 * @param noLocal      skip messages of the consumer's own connection
 * @param consumerId   the consumer, unique on the broker (the client picks a random 64-bit id)
 * @param tagMasks     the selector's tag signature masks (the client's selector analysis): the
 *                     broker offers this consumer only messages whose signature covers one of
 *                     them; empty offers everything. The client still checks the whole selector.
 */
public record SubscribeRequest(SubscriptionRef subscription, String selector, boolean noLocal, long consumerId,
                               List<Long> tagMasks) {

    public SubscribeRequest {
        Objects.requireNonNull(subscription, "subscription");
        tagMasks = List.copyOf(tagMasks);
    }

    /** A consumer without broker-side filtering. */
    public SubscribeRequest(SubscriptionRef subscription, String selector, boolean noLocal, long consumerId) {
        this(subscription, selector, noLocal, consumerId, List.of());
    }
}
