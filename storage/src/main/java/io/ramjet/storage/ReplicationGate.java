package io.ramjet.storage;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What a durable append waits for besides the local force, and what the dispatcher may pass:
 * under synchronous replication, the replicas holding the bytes. The store asks it for every
 * append made with {@code waitForFlush}, once the local force (if any) is done; the append's
 * future completes when the gate's does, and fails if it fails. The dispatcher gives a record to
 * the listener only once the gate holds it ({@link #replicatedOffset}), so a consumer never sees
 * a record that a failover could take back: such a message, its send unanswered, would be resent
 * to the next master and delivered again as new (Kafka's high watermark serves the same end).
 */
@FunctionalInterface
public interface ReplicationGate {

    /** Nothing to wait for: a broker without synchronous replicas. */
    ReplicationGate NONE = endOffset -> CompletableFuture.completedFuture(null);

    /**
     * Completes once every byte below {@code endOffset} is where the gate wants it; a gate with a
     * timeout fails with {@link NotReplicatedException} when it passes first.
     */
    CompletableFuture<Void> replicatedTo(long endOffset);

    /**
     * Why a write appended now could not be answered (under synchronous replication, an in-sync
     * set below its minimum), or empty when it could: for a decision that is refused rather than
     * written when it could not be answered.
     */
    default Optional<String> shortfall() {
        return Optional.empty();
    }

    /** Every byte below this offset is where the gate wants it; never goes back. */
    default long replicatedOffset() {
        return Long.MAX_VALUE;
    }

    /**
     * {@code advanced} (short, on any thread) runs whenever {@link #replicatedOffset} grows;
     * it replaces the one given before (a store reopened).
     */
    default void onAdvance(Runnable advanced) {
    }
}
