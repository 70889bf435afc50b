package io.ramjet.server.broker.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    void aSlaveWhoseConnectionClosedLeavesTheSetAtOnceAndTheOthersAnswerTheWrite() {
        InSyncReplicas three = new InSyncReplicas(new ReplicationConfig(ReplicationConfig.Role.MASTER, null,
                ReplicationConfig.Mode.SYNC, 2, Duration.ofSeconds(10), Duration.ofSeconds(5), 0), now::get);
        three.fetched(1, 0, 0);
        three.fetched(2, 0, 0);
        assertEquals(Set.of(1L, 2L), three.inSync());
        CompletableFuture<Void> write = three.replicatedTo(500);
        three.fetched(1, 500, 500);
        assertFalse(write.isDone(), "slave 2 is waited for");

        three.disconnected(2);

        assertEquals(Set.of(1L), three.inSync());
        assertTrue(write.isDone() && !write.isCompletedExceptionally(), "answered by the master and slave 1");
    }

    @Test
    void aSlaveThatLeftIsWaitedForUntilTheSetWithoutItIsCommitted() {
        List<Set<Long>> asked = new ArrayList<>();
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        InSyncReplicas controlled = new InSyncReplicas(new ReplicationConfig(ReplicationConfig.Role.MASTER, null,
                ReplicationConfig.Mode.SYNC, 1, Duration.ofSeconds(1), Duration.ofSeconds(5), 0), now::get, slaves -> {
                    asked.add(slaves);
                    CompletableFuture<Void> commit = new CompletableFuture<>();
                    commits.add(commit);
                    return commit;
                });
        controlled.fetched(1, 0, 0);
        assertEquals(List.of(Set.of(1L)), asked, "a slave that joins is committed");
        commits.get(0).complete(null);
        CompletableFuture<Void> write = controlled.replicatedTo(500);
        now.addAndGet(Duration.ofMillis(1_500).toNanos());
        controlled.check();
        assertEquals(List.of(Set.of(1L), Set.of()), asked, "a slave that left is committed as gone");
        assertFalse(write.isDone(), "answered without slave 1 before the controllers know it left");
        commits.get(1).completeExceptionally(new IOException("no controller"));
        controlled.check();
        assertEquals(3, asked.size(), "a failed commit is tried again");
        assertFalse(write.isDone());
        commits.get(2).complete(null);
        assertTrue(write.isDone() && !write.isCompletedExceptionally(), "one broker suffices once committed");
    }

    /**
     * ReplicaCutTest[TRANSACTED]: a slave caught up with the master's end at its last
     * answer, while writes past that end were answered with another slave, must not be committed
     * as in sync (electable) before it holds them: elected, it would serve without them (a MARK
     * among them: a delivery it does not know of, redelivered without JMSRedelivered).
     */
    @Test
    void aJoiningSlaveIsWaitedForAtOnceButCommittedOnlyOnceItHoldsEveryAnsweredWrite() {
        List<Set<Long>> asked = new ArrayList<>();
        InSyncReplicas controlled = new InSyncReplicas(new ReplicationConfig(ReplicationConfig.Role.MASTER, null,
                ReplicationConfig.Mode.SYNC, 2, Duration.ofSeconds(1), Duration.ofSeconds(5), 0), now::get, slaves -> {
                    asked.add(slaves);
                    return CompletableFuture.completedFuture(null);
                });
        controlled.fetched(2, 0, 0);
        controlled.fetched(3, 0, 1_000);
        controlled.answered(3, 1_000);
        CompletableFuture<Void> answered = controlled.replicatedTo(1_500);
        controlled.fetched(2, 1_500, 1_500);
        assertTrue(answered.isDone(), "answered with slave 2");
        controlled.fetched(3, 1_000, 1_500);
        assertEquals(Set.of(2L), controlled.inSync(), "slave 3 lacks the write answered up to 1500");
        assertEquals(List.of(Set.of(2L)), asked, "never committed without it: the controllers could elect it");
        CompletableFuture<Void> next = controlled.replicatedTo(1_600);
        controlled.fetched(2, 1_600, 1_600);
        assertFalse(next.isDone(), "a joining slave is waited for at once, so what it lacks stops growing");
        controlled.fetched(3, 1_600, 1_600);
        assertTrue(next.isDone());
        assertEquals(Set.of(2L, 3L), controlled.inSync());
        assertEquals(List.of(Set.of(2L), Set.of(2L, 3L)), asked, "committed once it holds every answered write");
    }

    @Test
    void asyncWritesNeverWait() {
        InSyncReplicas async = new InSyncReplicas(ReplicationConfig.DEFAULT, now::get);
        assertTrue(async.replicatedTo(Long.MAX_VALUE).isDone());
    }

    @Test
    void theDispatchBoundIsWhatASyncWriteWouldBeAnsweredAtAndItsAdvanceWakes() {
        AtomicLong wakes = new AtomicLong();
        replicas.onAdvance(wakes::incrementAndGet);
        assertEquals(0, replicas.replicatedOffset(), "the master alone is fewer than 2: nothing passes");
        replicas.fetched(1, 0, 0);
        assertEquals(0, replicas.replicatedOffset());
        replicas.fetched(1, 700, 900);
        assertEquals(700, replicas.replicatedOffset(), "the in-sync slave's flush");
        assertEquals(1, wakes.get());
        replicas.fetched(1, 650, 900);
        assertEquals(700, replicas.replicatedOffset(), "never goes back");
        replicas.fetched(1, 900, 900);
        assertEquals(900, replicas.replicatedOffset());
        assertEquals(2, wakes.get());

        InSyncReplicas alone = new InSyncReplicas(new ReplicationConfig(ReplicationConfig.Role.MASTER, null,
                ReplicationConfig.Mode.SYNC, 1, Duration.ofSeconds(1), Duration.ofSeconds(5), 0), now::get);
        assertEquals(Long.MAX_VALUE, alone.replicatedOffset(), "no slave waited for: everything written");
        alone.fetched(1, 400, 400);
        assertEquals(400, alone.replicatedOffset(), "a slave in sync is waited for");
        assertEquals(Long.MAX_VALUE, new InSyncReplicas(ReplicationConfig.DEFAULT, now::get).replicatedOffset(),
                "ASYNC waits for no one");
    }
}
