package io.ramjet.protocol.command;

import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#ACK}: acknowledges messages delivered to one consumer attachment.
 * The response comes once the acknowledgement is durable; an acknowledged message is never
 * delivered again. The broker acknowledges only messages in flight to {@code consumerId} over
 * the connection the request came on; if any named message is not (its delivery was lost with
 * a broker restart or a lost connection, or it was never delivered there), the others are
 * acknowledged and the answer is {@link ErrorStatus#DELIVERY_NOT_HELD}. The same list in a
 * transaction's TX_PREPARE or TX_END names what the transaction consumed.
 *
 * @param consumerId   the attachment the messages were delivered through
 * @param subscription their subscription
 * @param messages     which messages
 */
public record AckRequest(long consumerId, SubscriptionRef subscription, List<MessagePosition> messages) {

    public AckRequest {
        Objects.requireNonNull(subscription, "subscription");
        messages = List.copyOf(messages);
    }
}
