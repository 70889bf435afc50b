package io.ramjet.server.broker.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SubscriptionKindTest {

    /** The bytes existing data directories hold for each kind. */
    private static final Map<SubscriptionKind, Integer> ON_DISK = Map.of(SubscriptionKind.QUEUE, 0,
            SubscriptionKind.TOPIC, 1, SubscriptionKind.DURABLE, 2, SubscriptionKind.SHARED, 3,
            SubscriptionKind.SHARED_DURABLE, 4);

    @Test
    void everyKindKeepsItsCode() {
        assertEquals(SubscriptionKind.values().length, ON_DISK.size());
        ON_DISK.forEach((kind, code) -> {
            assertEquals(code, kind.code(), kind.name());
            assertEquals(kind, SubscriptionKind.ofCode(code));
        });
        assertThrows(IllegalArgumentException.class, () -> SubscriptionKind.ofCode(5));
    }
}
