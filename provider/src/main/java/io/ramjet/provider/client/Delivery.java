package io.ramjet.provider.client;

import io.ramjet.protocol.command.MessagePosition;

/** One message pulled for a consumer: where it sits in its subscription, its count and its bytes. */
public record Delivery(ConsumerInfo consumer, MessagePosition position, int deliveryCount, byte[] properties,
                       byte[] body) {
}
