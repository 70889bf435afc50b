package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#RELEASE}: makes an in-flight message visible again.
 *
 * @param consumerId      the consumer releasing it
 * @param subscription    its subscription
 * @param message         which message
 * @param countDelivery   the application may have seen it (rollback, recover): the next delivery
 *                        has a higher count; false for a prefetched message never seen
 * @param excludeConsumer never offer it to this consumer again (its selector does not match)
 */
public record ReleaseRequest(long consumerId, SubscriptionRef subscription, MessagePosition message,
                             boolean countDelivery, boolean excludeConsumer) {

    public ReleaseRequest {
        Objects.requireNonNull(subscription, "subscription");
        Objects.requireNonNull(message, "message");
    }
}
