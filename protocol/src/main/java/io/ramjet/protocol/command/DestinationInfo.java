package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/**
 * One destination as a broker announces it to the NameServers.
 *
 * @param name        destination name
 * @param kind        queue or topic
 * @param queueCount  number of message queues on this broker, at least 1
 * @param permissions {@link Permission} bits
 */
public record DestinationInfo(String name, DestinationKind kind, int queueCount, int permissions) {

    public DestinationInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        if (queueCount < 1) {
            throw new IllegalArgumentException("queueCount must be at least 1: " + queueCount);
        }
    }
}
