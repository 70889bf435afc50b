package io.ramjet.protocol.command;

import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#CLOSE_CONSUMER}: detaches a consumer. What it held and the
 * application never saw becomes visible again without counting a delivery; the messages the
 * application consumed and its session has not yet acknowledged or committed ({@code kept})
 * stay delivered to the consumer id, for the session to acknowledge, commit, roll back or
 * recover, or for the broker to release (counted) when the connection closes. A non-durable
 * subscription dies with its last consumer.
 *
 * @param consumerId   the attachment
 * @param subscription its subscription
 * @param kept         messages its session still holds
 */
public record CloseConsumerRequest(long consumerId, SubscriptionRef subscription, List<MessagePosition> kept) {

    public CloseConsumerRequest {
        Objects.requireNonNull(subscription, "subscription");
        kept = List.copyOf(kept);
    }
}
