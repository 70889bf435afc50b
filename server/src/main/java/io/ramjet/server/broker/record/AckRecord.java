package io.ramjet.server.broker.record;

import java.util.List;
import java.util.Objects;

/** Acknowledgements of one subscription as a transaction record holds them. */
public record AckRecord(RecordKey subscription, List<QueuePosition> positions) {

    public AckRecord {
        Objects.requireNonNull(subscription, "subscription");
        positions = List.copyOf(positions);
    }
}
