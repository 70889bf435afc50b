package io.ramjet.controller;

import io.ramjet.model.EpochEntry;

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
import java.util.concurrent.CompletableFuture;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Three real Ratis controllers in this JVM on 127.0.0.1. */
class ControllerGroupTest {

    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(3);
    private static final long BEAT_MILLIS = 200;
    /** Timeout, one check period, one commit: the failover bound, plus room for a loaded machine. */
    private static final Duration FAILOVER_BOUND = BROKER_TIMEOUT.plus(BROKER_TIMEOUT.dividedBy(4)).plusSeconds(3);
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /** A call's own bound: generous, since a machine at load 60 took over 20 s to commit one register. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);
    /** Small segments, so that snapshots let the leader delete log a stopped controller then never sees. */
    private static final long SEGMENT_BYTES = 16 * 1024;

    @TempDir
    Path dir;

    private ControllerGroup group;
    private final List<ControllerNode> nodes = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private ControllerClient client;

    @BeforeEach
    void startGroupOfThree() throws IOException {
        group = FreePorts.groupOf(3);
        for (int i = 0; i < 3; i++) {
            nodes.add(ControllerNode.start(config(i)));
        }
        client = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT);
    }

    private ControllerConfig config(int i) {
        return new ControllerConfig("n" + i, dir.resolve("n" + i), group, BROKER_TIMEOUT, false,
                Duration.ofMillis(1000), 5, SEGMENT_BYTES, TestClusterSecret.SECRET);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        if (client != null) {
            client.close();
        }
        for (ControllerNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }

    @Test
    void aGroupOfThreeElectsOneLeader() throws Exception {
        await("exactly one leader").atMost(SETTLE).ignoreExceptions()
                .until(() -> nodes.stream().filter(ControllerNode::isLeader).count(), n -> n == 1);
    }

    @Test
    void anInSyncSlaveReplacesASilentMasterInANewEpochAndAnOutOfSyncOneNeverDoes() throws Exception {
        assertEquals(0, client.register("g", 0, "h:0", 100).info().masterId());
        // each registers at the log end it heartbeats, so the leader knows it whether or not a beat landed yet
        client.register("g", 1, "h:1", 140);
        client.register("g", 2, "h:2", 900);
        assertTrue(client.alterInSyncSet("g", 0, 1, Set.of(0L, 1L)).ok());
        // broker 2 is out of sync even though it reports the longest log
        HeartbeatingBroker master = beat("g", 0, 100);
        beat("g", 1, 140);
        beat("g", 2, 900);
        assertEquals(ControllerStatus.MASTER_ALIVE, client.electMaster("g", false).status());

        master.close();
        long stoppedAt = System.nanoTime();
        ReplicaInfo after = await("a new master").atMost(FAILOVER_BOUND.plus(SETTLE)).ignoreExceptions()
                .until(() -> client.replicaInfo("g").info(), info -> info.masterId() != 0);
        Duration took = Duration.ofNanos(System.nanoTime() - stoppedAt);

        assertEquals(1, after.masterId());
        assertEquals(2, after.epoch());
        assertEquals(List.of(new EpochEntry(1, 100), new EpochEntry(2, 140)), after.history().entries());
        assertEquals(Set.of(1L), after.inSync());
        assertTrue(took.compareTo(FAILOVER_BOUND) < 0, "failover took " + took);
    }

    @Test
    void theOldMastersAlterWithItsStaleEpochIsRefused() throws Exception {
        client.register("g", 0, "h:0", 0);
        client.register("g", 1, "h:1", 0);
        client.alterInSyncSet("g", 0, 1, Set.of(0L, 1L));
        beat("g", 1, 50);
        await("broker 1 master").atMost(FAILOVER_BOUND.plus(SETTLE)).ignoreExceptions()
                .until(() -> client.replicaInfo("g").info().masterId(), id -> id == 1);

        ControllerReply stale = client.alterInSyncSet("g", 0, 1, Set.of(0L, 1L));
        assertEquals(ControllerStatus.STALE_EPOCH, stale.status());
        assertEquals(Set.of(1L), stale.info().inSync());
        assertTrue(client.alterInSyncSet("g", 1, 2, Set.of(0L, 1L)).ok());
    }

    @Test
    void electionsRacingForOneSilentMasterChangeItOnce() throws Exception {
        client.register("g", 0, "h:0", 0);
        client.register("g", 1, "h:1", 0);
        client.register("g", 2, "h:2", 0);
        client.alterInSyncSet("g", 0, 1, Set.of(0L, 1L, 2L));
        beat("g", 1, 50);
        beat("g", 2, 50);
        // two callers and the leader's own check all elect while broker 0 stays silent: each
        // election entry judged at epoch 1 would, applied twice, move the master on to a third broker
        try (ControllerClient other = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT)) {
            CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> Elections.untilReplaced(client, "g", 0, SETTLE));
            CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> Elections.untilReplaced(other, "g", 0, SETTLE));
            assertTrue(first.join() + second.join() <= 1, "elections that changed the master");
        }
        ReplicaInfo info = client.replicaInfo("g").info();
        assertEquals(2, info.epoch());
        assertEquals(2, info.history().entries().size());
    }

    @Test
    void theTwoRemainingControllersServeAndTheStoppedOneCatchesUpOnRestart() throws Exception {
        client.register("g", 0, "h:0", 0);
        // a master that heartbeats stays master: no election moves the state the restarted node must reach
        beat("g", 0, 0);
        int stopped = await("a follower").atMost(SETTLE).ignoreExceptions()
                .until(this::aFollower, i -> i >= 0);
        nodes.get(stopped).close();
        nodes.set(stopped, null);

        for (long id = 1; id <= 6; id++) {
            assertTrue(client.register("g", id, "h:" + id, 0).ok());
        }
        assertTrue(client.alterInSyncSet("g", 0, 1, Set.of(0L, 3L, 6L)).ok());
        ReplicaInfo decided = client.replicaInfo("g").info();

        nodes.set(stopped, ControllerNode.start(config(stopped)));
        await("n" + stopped + " caught up").atMost(SETTLE).ignoreExceptions()
                .until(() -> client.replicaInfoAt("n" + stopped, "g").info(), decided::equals);
        assertTrue(RaftFiles.names(dir.resolve("n" + stopped), "sm").stream().anyMatch(name -> name.startsWith("snapshot.")),
                "a snapshot was taken");
    }

    @Test
    void aControllerThatMissedLogTheLeaderDeletedIsSentTheSnapshot() throws Exception {
        client.register("g", 0, "h:0", 0);
        beat("g", 0, 0);
        int stopped = await("a follower").atMost(SETTLE).ignoreExceptions()
                .until(this::aFollower, i -> i >= 0);
        int leader = await("a leader").atMost(SETTLE).ignoreExceptions()
                .until(this::theLeader, i -> i >= 0);
        nodes.get(stopped).close();
        nodes.set(stopped, null);

        String longAddress = "h".repeat(400) + ":1";
        for (long id = 1; id <= 150; id++) {
            assertTrue(client.register("g", id, longAddress + id, 0).ok());
        }
        ReplicaInfo decided = client.replicaInfo("g").info();
        assertTrue(RaftFiles.names(dir.resolve("n" + leader), "current").stream().noneMatch(name -> name.startsWith("log_0-")),
                "the leader deleted the log's first segment");

        nodes.set(stopped, ControllerNode.start(config(stopped)));
        await("n" + stopped + " caught up").atMost(SETTLE).ignoreExceptions()
                .until(() -> client.replicaInfoAt("n" + stopped, "g").info(), decided::equals);
    }

    private int theLeader() {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).isLeader()) {
                return i;
            }
        }
        return -1;
    }

    private int aFollower() {
        for (int i = 0; i < nodes.size(); i++) {
            if (!nodes.get(i).isLeader() && nodes.stream().anyMatch(ControllerNode::isLeader)) {
                return i;
            }
        }
        return -1;
    }

    private HeartbeatingBroker beat(String brokerName, long brokerId, long maxOffset) {
        HeartbeatingBroker broker = new HeartbeatingBroker(client, brokerName, brokerId, maxOffset, BEAT_MILLIS);
        closeables.add(broker);
        return broker;
    }
}
