package io.ramjet.provider.client;

import io.ramjet.protocol.command.DestinationKind;
import java.util.Objects;

/** A message ready for the wire: where it goes, its broker-visible attributes and its bytes. */
public record OutgoingMessage(String destination, DestinationKind kind, boolean persistent, long deliveryTime,
                              long expiration, byte[] properties, byte[] body) {
    public OutgoingMessage {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(kind, "kind");
    }
}
