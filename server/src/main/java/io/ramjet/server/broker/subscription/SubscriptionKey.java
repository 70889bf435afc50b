package io.ramjet.server.broker.subscription;

import io.ramjet.model.DestinationKind;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.record.RecordKey;

import java.util.Objects;

/**
 * Names a subscription on a broker. A queue's is its destination; a durable one is scoped by
 * client id (null for a shared durable subscription created without one, as JMS 2.0 allows);
 * a non-durable topic subscription takes its consumer's id as name.
 */
public record SubscriptionKey(String destination, SubscriptionKind kind, String clientId, String name) {

    public SubscriptionKey {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    /** A queue subscription reads a queue, every other kind a topic. */
    public DestinationKind destinationKind() {
        return kind == SubscriptionKind.QUEUE ? DestinationKind.QUEUE : DestinationKind.TOPIC;
    }

    /** The storage name of the destination it reads. */
    public String storageName() {
        return Destination.storageName(destinationKind(), destination);
    }

    /** The key as an operator reads it: {@code QUEUE}, or the kind and name, e.g. {@code DURABLE:client/name}. */
    public String label() {
        return kind == SubscriptionKind.QUEUE ? kind.name()
                : kind.name() + ":" + (clientId == null ? "" : clientId + "/") + name;
    }

    /** The key as the broker's records hold it. */
    public RecordKey toRecord() {
        return new RecordKey(destination, kind.code(), clientId, name);
    }

    /** @throws IllegalArgumentException for a kind code no kind has */
    public static SubscriptionKey of(RecordKey key) {
        return new SubscriptionKey(key.destination(), SubscriptionKind.ofCode(key.kind()), key.clientId(), key.name());
    }

    public static SubscriptionKey queue(String destination) {
        return new SubscriptionKey(destination, SubscriptionKind.QUEUE, null, destination);
    }
}
