package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/**
 * Header of {@link CommandCode#ADMIN_CREATE}: an operator's new permanent destination, created
 * whatever the broker's auto-creation policy. Response header {@link AdminCount}: 1 when it was
 * created, 0 when it already existed (its queue count then stays as it was).
 *
 * @param queueCount message queues, or 0 for the broker's default
 */
public record AdminCreateRequest(String name, DestinationKind kind, int queueCount) {

    public AdminCreateRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }
}
