package io.ramjet.server.broker.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The master's in-sync set and the SYNC gate, on a clock the test moves. */
class InSyncReplicasTest {

    private final AtomicLong now = new AtomicLong();
    private final InSyncReplicas replicas = new InSyncReplicas(new ReplicationConfig(ReplicationConfig.Role.MASTER,
            null, ReplicationConfig.Mode.SYNC, 2, Duration.ofSeconds(1), Duration.ofSeconds(5), 0), now::get);

    @Test
    void aSlaveJoinsOnceItHasAllTheMasterHadAndTheGateWaitsForItsFlush() {
        replicas.fetched(1, 0, 1_000);
        assertEquals(Set.of(), replicas.inSync(), "behind the master's end");
        replicas.answered(1, 1_000);
        replicas.fetched(1, 1_000, 1_200);
        assertEquals(Set.of(1L), replicas.inSync());
        CompletableFuture<Void> write = replicas.replicatedTo(1_200);
        assertFalse(write.isDone());
        replicas.fetched(1, 1_200, 1_200);
        assertTrue(write.isDone());
        assertEquals(1_200, replicas.flushedOffset(1));
        assertEquals(-1, replicas.flushedOffset(2));
        assertTrue(replicas.replicatedTo(1_100).isDone());
    }

    @Test
    void aSlaveThatStopsCatchingUpLeavesTheSetAndTooFewInSyncFailsTheWriteAfterTheTimeout() {
        replicas.fetched(1, 0, 0);
        assertEquals(Set.of(1L), replicas.inSync());
        CompletableFuture<Void> write = replicas.replicatedTo(500);
        now.addAndGet(Duration.ofMillis(1_500).toNanos());
        replicas.check();
        assertEquals(Set.of(), replicas.inSync());
        assertFalse(write.isDone(), "waits for the set to come back");
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        replicas.check();
        assertTrue(write.isCompletedExceptionally());
    }

    @Test
    void asyncWritesNeverWait() {
        InSyncReplicas async = new InSyncReplicas(ReplicationConfig.DEFAULT, now::get);
        assertTrue(async.replicatedTo(Long.MAX_VALUE).isDone());
    }
}
