package io.ramjet.protocol.command;

import java.util.Objects;

/** Header of {@link CommandCode#QUERY_ROUTE}. */
public record QueryRouteRequest(String destination) {

    public QueryRouteRequest {
        Objects.requireNonNull(destination, "destination");
    }
}
