package io.ramjet.protocol.command;

import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#RELEASE_BATCH}: makes messages in flight to one consumer attachment
 * visible again, all of one queue at once, so a pull the broker serves meanwhile finds either
 * none of them back or all of them, and takes them in their queue order before any later
 * message. The response comes once every named message is back. The broker releases only
 * messages in flight to {@code consumerId} over the connection the request came on; if any
 * named message is not, the others are released and the answer is
 * {@link ErrorStatus#DELIVERY_NOT_HELD}.
 *
 * @param consumerId    the attachment the messages were delivered through
 * @param subscription  their subscription
 * @param messages      which messages, of any of the subscription's queues
 * @param countDelivery the application may have seen them (rollback, recover): their next
 *                      delivery has a higher count; false for prefetched messages never seen
 */
public record ReleaseBatchRequest(long consumerId, SubscriptionRef subscription, List<MessagePosition> messages,
                                  boolean countDelivery) {

    public ReleaseBatchRequest {
        Objects.requireNonNull(subscription, "subscription");
        messages = List.copyOf(messages);
    }
}
