package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Response header of {@link CommandCode#QUERY_ROUTE}: every live broker instance holding the
 * destination, masters and slaves, ordered by broker name then broker id. Empty when no live
 * broker announces the destination.
 */
public record RouteData(String destination, List<BrokerRoute> brokers) {

    public RouteData {
        Objects.requireNonNull(destination, "destination");
        brokers = List.copyOf(brokers);
    }

    public boolean isEmpty() {
        return brokers.isEmpty();
    }

    /** The routes a producer may send to: masters with write permission. */
    public List<BrokerRoute> writableMasters() {
        return brokers.stream()
                .filter(r -> r.broker().isMaster() && Permission.isWritable(r.permissions()))
                .toList();
    }
}
