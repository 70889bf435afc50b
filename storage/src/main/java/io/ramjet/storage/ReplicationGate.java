package io.ramjet.storage;

import java.util.concurrent.CompletableFuture;

/**
 * What a durable append waits for besides the local force: under synchronous replication, the
 * replicas holding its bytes. The store asks it for every append made with
 * {@code waitForFlush}, once the local force (if any) is done; the append's future completes
 * when the gate's does, and fails if it fails.
 */
@FunctionalInterface
public interface ReplicationGate {

    /** Nothing to wait for: a broker without synchronous replicas. */
    ReplicationGate NONE = endOffset -> CompletableFuture.completedFuture(null);

    /** Completes once every byte below {@code endOffset} is where the gate wants it. */
    CompletableFuture<Void> replicatedTo(long endOffset);
}
