package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/** Header of {@link CommandCode#DELETE_DESTINATION}; {@link ErrorStatus#NOT_FOUND} if absent. */
public record DeleteDestinationRequest(String name, DestinationKind kind) {

    public DeleteDestinationRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }
}
