package io.ramjet.server.broker.delivery;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many messages of each destination the broker discarded on the way to a consumer, by
 * reason: expired (acknowledged away when fetched past their JMSExpiration) or dead-lettered
 * (moved to the dead-letter queue once the copy was durable). Keyed by the destination's storage
 * name; counted since the broker started, in memory only; a deleted destination's counts go with
 * it ({@link #forget}). Thread-safe.
 */
public final class DiscardCounts {

    private record Counts(LongAdder expired, LongAdder deadLettered) {
    }

    private final Map<String, Counts> counts = new ConcurrentHashMap<>();

    void expired(String storageName) {
        of(storageName).expired().increment();
    }

    void deadLettered(String storageName) {
        of(storageName).deadLettered().increment();
    }

    /** Messages of the destination that expired before delivery. */
    public long expiredOf(String storageName) {
        Counts c = counts.get(storageName);
        return c == null ? 0 : c.expired().sum();
    }

    /** Messages of the destination moved to its dead-letter queue. */
    public long deadLetteredOf(String storageName) {
        Counts c = counts.get(storageName);
        return c == null ? 0 : c.deadLettered().sum();
    }

    /** Drops a deleted destination's counts. */
    public void forget(String storageName) {
        counts.remove(storageName);
    }

    private Counts of(String storageName) {
        return counts.computeIfAbsent(storageName, n -> new Counts(new LongAdder(), new LongAdder()));
    }
}
