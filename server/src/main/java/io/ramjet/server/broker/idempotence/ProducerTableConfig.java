package io.ramjet.server.broker.idempotence;

import java.time.Duration;
import java.util.Objects;

/**
 * How long and how many idempotent producers a broker remembers.
 *
 * @param idleExpiry a producer none of whose messages was stored for this long is forgotten (its
 *                   resends are then stored again)
 * @param maxProducers the most producers remembered; beyond it the one idle longest is forgotten
 */
public record ProducerTableConfig(Duration idleExpiry, int maxProducers) {

    public static final ProducerTableConfig DEFAULT = new ProducerTableConfig(Duration.ofHours(1), 100_000);

    public ProducerTableConfig {
        Objects.requireNonNull(idleExpiry, "idleExpiry");
        if (idleExpiry.isNegative() || idleExpiry.isZero()) {
            throw new IllegalArgumentException("producerIdleExpiry must be positive");
        }
        if (maxProducers < 1) {
            throw new IllegalArgumentException("producerTableMax must be positive");
        }
    }
}
