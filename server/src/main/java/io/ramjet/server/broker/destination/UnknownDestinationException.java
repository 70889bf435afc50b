package io.ramjet.server.broker.destination;

import io.ramjet.model.DestinationKind;

/** A destination that does not exist on this broker and may not be auto-created. */
public final class UnknownDestinationException extends RuntimeException {

    public UnknownDestinationException(DestinationKind kind, String name) {
        super("no " + kind.name().toLowerCase(java.util.Locale.ROOT) + " named '" + name + "' on this broker");
    }
}
