package io.ramjet.model.stats;

import io.ramjet.model.DestinationKind;

/**
 * One attached consumer.
 *
 * @param id           the broker's consumer id
 * @param connection   the client's connection (its remote address)
 * @param subscription the subscription's kind and name, e.g. {@code DURABLE:client/name}, {@code QUEUE}
 * @param selector     the consumer's own selector, null for none
 */
public record ConsumerStats(long id, String connection, String destination, DestinationKind destinationKind,
                            String subscription, String selector) {
}
