package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/**
 * Header of {@link CommandCode#CREATE_DESTINATION}; response header the {@link DestinationInfo}
 * of the destination, which may already have existed with another queue count.
 *
 * @param queueCount message queues, or 0 for the broker's default
 * @param temporary  a JMS temporary destination: it lives as long as the connection that
 *                   created it, only that connection may consume from it, and it is not kept
 *                   across a broker restart. The broker names it in its own namespace
 *                   ({@code TMP.<connection>.<n>}), whatever name the request gives, and answers that name.
 */
public record CreateDestinationRequest(String name, DestinationKind kind, int queueCount, boolean temporary) {

    public CreateDestinationRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }

    /** A temporary destination, which the broker names. */
    public static CreateDestinationRequest temporary(DestinationKind kind) {
        return new CreateDestinationRequest("", kind, 1, true);
    }

    /** A permanent destination. */
    public CreateDestinationRequest(String name, DestinationKind kind, int queueCount) {
        this(name, kind, queueCount, false);
    }
}
