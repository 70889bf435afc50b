package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#DELETE_SUBSCRIPTION}: JMS {@code unsubscribe} of a durable
 * subscription. Answers {@link ErrorStatus#SUBSCRIPTION_CONFLICT} while it has a consumer and
 * {@link ErrorStatus#NOT_FOUND} when there is none of that name.
 */
public record DeleteSubscriptionRequest(String clientId, String name) {

    public DeleteSubscriptionRequest {
        Objects.requireNonNull(name, "name");
    }
}
