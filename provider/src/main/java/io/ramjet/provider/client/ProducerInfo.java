package io.ramjet.provider.client;

import io.ramjet.provider.destination.RamjetDestination;

/**
 * A producer: the prefix of the message ids it assigns and its fixed destination, or null for
 * an anonymous producer.
 */
public record ProducerInfo(String messageIdPrefix, RamjetDestination destination) {
}
