package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/**
 * Where one destination lives on one broker instance.
 *
 * @param broker      the broker instance; {@link BrokerInfo#isMaster()} tells whether it takes writes
 * @param kind        the destination's kind as this broker announced it
 * @param queueCount  message queues of the destination on this broker
 * @param permissions {@link Permission} bits
 */
public record BrokerRoute(BrokerInfo broker, DestinationKind kind, int queueCount, int permissions) {

    public BrokerRoute {
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(kind, "kind");
    }
}
