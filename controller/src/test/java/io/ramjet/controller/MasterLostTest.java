package io.ramjet.controller;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master lost, through three real Ratis controllers on 127.0.0.1: a silent master a replica
 * lost is replaced once its lease ends, one that no replica lost only after the silent-master
 * timeout; a master that registers again (a new run of it) is replaced by a live in-sync replica
 * once its previous run's lease ended, and stays master when no such replica lives.
 */
class MasterLostTest {

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration SILENT = Duration.ofSeconds(60);
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<ControllerNode> nodes = new ArrayList<>();
    private final ScheduledExecutorService beats = Executors.newScheduledThreadPool(2);
    private ControllerClient client;

    @BeforeEach
    void startGroupOfThree() throws IOException {
        ControllerGroup group = FreePorts.groupOf(3);
        for (int i = 0; i < 3; i++) {
            nodes.add(ControllerNode.start(new ControllerConfig("n" + i, dir.resolve("n" + i), group, LEASE, false,
                    Duration.ofMillis(1000), 1000, 1 << 20, TestClusterSecret.SECRET).withSilentMasterTimeout(SILENT)));
        }
        client = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT);
    }

    @AfterEach
    void stop() throws Exception {
        beats.shutdownNow();
        beats.awaitTermination(10, TimeUnit.SECONDS);
        client.close();
        for (ControllerNode node : nodes) {
            node.close();
        }
    }

    @Test
    void aSilentMasterItsReplicaLostIsReplacedOnceItsLeaseEndsAndOneNoReplicaLostIsNot() throws Exception {
        for (String name : List.of("lost", "silent")) {
            assertEquals(0, client.register(name, 0, "h:0", 100).info().masterId());
            client.register(name, 1, "h:1", 100);
            client.alterInSyncSet(name, 0, 1, Set.of(0L, 1L));
        }
        // the masters (broker 0) are silent from here; the replicas heartbeat, one reporting its master lost
        repeat(() -> client.masterLost("lost", 1, 100, 1));
        repeat(() -> client.heartbeat("silent", 1, 100));

        await("the replica that lost its master elected").atMost(LEASE.plus(SETTLE)).ignoreExceptions()
                .until(() -> client.replicaInfo("lost").info().masterId(), id -> id == 1);
        assertEquals(0, client.replicaInfo("silent").info().masterId(), "a master no replica lost stays master");
    }

    @Test
    void aMasterRegisteringAgainIsReplacedByALiveInSyncReplicaOnceItsLeaseEndsAndStaysWithoutOne()
            throws Exception {
        for (String name : List.of("replaced", "alone")) {
            assertEquals(0, client.register(name, 0, "h:0", 100).info().masterId());
            client.register(name, 1, "h:1", 90);
            client.register(name, 2, "h:2", 90);
        }
        client.alterInSyncSet("replaced", 0, 1, Set.of(0L, 1L, 2L));
        client.heartbeat("replaced", 0, 120);
        client.heartbeat("replaced", 1, 100);
        client.heartbeat("replaced", 2, 90);
        repeat(() -> client.heartbeat("replaced", 1, 100));
        repeat(() -> client.heartbeat("replaced", 2, 90));
        repeat(() -> client.heartbeat("alone", 1, 90));

        assertThrows(IOException.class, () -> client.register("replaced", 0, "h:0b", 120),
                "a registration within the lease of the master's previous run");
        long refusedAt = System.nanoTime();
        ReplicaInfo replaced = await("the restarted master registered").atMost(LEASE.plus(SETTLE)).ignoreExceptions()
                .until(() -> client.register("replaced", 0, "h:0b", 120), ControllerReply::ok).info();
        assertTrue(System.nanoTime() - refusedAt >= LEASE.toNanos() / 2, "registered before the lease ended");
        assertEquals(1, replaced.masterId(), "the live in-sync replica with the longest log is master");
        assertEquals(2, replaced.epoch());
        assertEquals(100, replaced.history().truncationPoint(1, 120), "the restarted master's tail is cut");
        assertEquals("h:0b", replaced.members().get(0L));

        ReplicaInfo alone = client.register("alone", 0, "h:0b", 100).info();
        assertEquals(0, alone.masterId(), "with no live in-sync replica the restarted master stays master");
        assertEquals(1, alone.epoch());
    }

    @Test
    void aMasterRegisteringAgainWaitsForALateInSyncReplicaThatIsHeardWithinTheSilentTimeout() throws Exception {
        assertEquals(0, client.register("late", 0, "h:0", 100).info().masterId());
        client.register("late", 1, "h:1", 100);
        client.alterInSyncSet("late", 0, 1, Set.of(0L, 1L));
        client.heartbeat("late", 1, 100);
        long heardAt = System.nanoTime();
        // the master's last sign after the replica's: once its lease ends, the replica is late
        client.heartbeat("late", 0, 100);
        await("a refusal while the replica is late").atMost(LEASE.plus(SETTLE)).ignoreExceptions().until(() -> {
            try {
                client.register("late", 0, "h:0b", 100);
                return "registered";
            } catch (IOException refused) {
                return refused.getMessage();
            }
        }, answer -> answer.contains("in-sync replicas are late"));
        assertTrue(System.nanoTime() - heardAt >= LEASE.toNanos(), "refused as late within the replica's lease");
        repeat(() -> client.heartbeat("late", 1, 100));
        ReplicaInfo replaced = await("the restarted master registered").atMost(LEASE.plus(SETTLE)).ignoreExceptions()
                .until(() -> client.register("late", 0, "h:0b", 100), ControllerReply::ok).info();
        assertEquals(1, replaced.masterId(), "the late replica, heard again, is master");
        assertEquals(2, replaced.epoch());
    }

    private interface Call {
        void run() throws IOException;
    }

    private void repeat(Call call) {
        beats.scheduleWithFixedDelay(() -> {
            try {
                call.run();
            } catch (IOException | RuntimeException e) {
                // the controller group may be between leaders; the next beat tries again
            }
        }, 0, 200, TimeUnit.MILLISECONDS);
    }
}
