package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#ADMIN_PURGE}: acknowledges, as the broker, every message a queue
 * or a durable subscription still has to consume and no consumer holds now (messages in flight
 * stay with their consumer). Answered with an {@link AdminCount} of the messages purged;
 * {@link ErrorStatus#NOT_FOUND} when there is no such queue or subscription.
 *
 * @param queue        the queue to purge, or null with a subscription
 * @param clientId     the durable subscription's client id (null for a shared one without)
 * @param subscription the durable subscription's name, or null with a queue
 */
public record PurgeRequest(String queue, String clientId, String subscription) {

    public PurgeRequest {
        if ((queue == null) == (subscription == null)) {
            throw new IllegalArgumentException("name a queue or a subscription");
        }
    }

    public static PurgeRequest queue(String queue) {
        return new PurgeRequest(Objects.requireNonNull(queue, "queue"), null, null);
    }
}
