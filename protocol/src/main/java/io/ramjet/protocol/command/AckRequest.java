package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#ACK}: acknowledges messages of a subscription. The response comes
 * once the acknowledgement is durable; an acknowledged message is never delivered again.
 */
public record AckRequest(SubscriptionRef subscription, List<MessagePosition> messages) {

    public AckRequest {
        Objects.requireNonNull(subscription, "subscription");
        messages = List.copyOf(messages);
    }
}
