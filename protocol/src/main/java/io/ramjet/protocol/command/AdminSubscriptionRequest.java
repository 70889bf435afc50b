package io.ramjet.protocol.command;

import io.ramjet.model.SubscriptionRef;

import java.util.Objects;

/**
 * Header of {@link CommandCode#ADMIN_CREATE_SUBSCRIPTION}: a topic's durable (or shared durable)
 * subscription an operator makes on a broker that holds the topic, without a consumer, from the
 * first message the topic holds there. Response header {@link AdminCount}: 1 when it was created,
 * 0 when a subscription of that name already existed (it is left as it is).
 *
 * @param subscription a DURABLE or SHARED_DURABLE subscription of a topic
 * @param selector     its message selector, or null
 * @param noLocal      whether it skips messages of its own connection
 */
public record AdminSubscriptionRequest(SubscriptionRef subscription, String selector, boolean noLocal) {

    public AdminSubscriptionRequest {
        Objects.requireNonNull(subscription, "subscription");
    }
}
