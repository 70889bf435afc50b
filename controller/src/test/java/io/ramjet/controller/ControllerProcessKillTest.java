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

/** Three controllers in three child JVMs on 127.0.0.1, killed with kill -9 ({@code destroyForcibly}). */
class ControllerProcessKillTest {

    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration SETTLE = Duration.ofSeconds(40);
    /** A call's own bound: generous, since a machine at load 60 took over 20 s to commit one register. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<ControllerProcess> controllers = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private ControllerGroup group;
    private ControllerClient client;

    @BeforeEach
    void startThreeControllerJvms() throws IOException {
        group = FreePorts.groupOf(3);
        for (ControllerPeer peer : group.peers()) {
            controllers.add(new ControllerProcess(peer.id(), dir.resolve(peer.id()), group, BROKER_TIMEOUT).start());
        }
        client = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        client.close();
        for (ControllerProcess controller : controllers) {
            controller.close();
        }
    }

    @Test
    void twoControllersServeAndDecideWhileTheThirdIsKilledAndItCatchesUpWhenRestarted() throws Exception {
        client.register("g", 0, "h:0", 100);
        ControllerProcess follower = controllers.stream()
                .filter(controller -> !client.leader().orElseThrow().equals(controller.id())).findFirst().orElseThrow();
        follower.kill();

        client.register("g", 1, "h:1", 120);
        client.register("g", 2, "h:2", 0);
        assertTrue(client.alterInSyncSet("g", 0, 1, Set.of(0L, 1L)).ok());
        beat("g", 1, 120);
        ReplicaInfo decided = await("broker 1 master, decided by the two remaining controllers").atMost(SETTLE)
                .ignoreExceptions().until(() -> client.replicaInfo("g").info(), info -> info.masterId() == 1);
        assertEquals(List.of(new EpochEntry(1, 100), new EpochEntry(2, 120)), decided.history().entries());

        follower.start();
        await(follower.id() + " caught up after its restart").atMost(SETTLE).ignoreExceptions()
                .until(() -> client.replicaInfoAt(follower.id(), "g").info(), decided::equals);
    }

    @Test
    void anElectionWhoseLeaderIsKilledMidwayIsAppliedOnceOrNotAtAll() throws Exception {
        client.register("g", 0, "h:0", 100);
        client.register("g", 1, "h:1", 150);
        client.register("g", 2, "h:2", 140);
        assertTrue(client.alterInSyncSet("g", 0, 1, Set.of(0L, 1L, 2L)).ok());
        long registeredAt = System.nanoTime();
        String leader = client.leader().orElseThrow();
        beat("g", 1, 150);
        beat("g", 2, 140);

        // broker 0 never heartbeats: its registration is the last the leader heard of it. Two
        // callers keep electing (as does the leader's own check, due a broker timeout after that);
        // the leader dies in that window, with election entries in flight.
        CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> Elections.untilReplaced(client, "g", 0, SETTLE));
        try (ControllerClient other = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT)) {
            CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> Elections.untilReplaced(other, "g", 0, SETTLE));
            long killAt = registeredAt + BROKER_TIMEOUT.plus(BROKER_TIMEOUT.dividedBy(8)).toNanos();
            Thread.sleep(Math.max(0, (killAt - System.nanoTime()) / 1_000_000));
            controllers.stream().filter(controller -> controller.id().equals(leader)).findFirst().orElseThrow().kill();
            assertTrue(first.join() + second.join() <= 1, "elections that changed the master");
        }

        ReplicaInfo info = client.replicaInfo("g").info();
        assertEquals(1, info.masterId());
        assertEquals(List.of(new EpochEntry(1, 100), new EpochEntry(2, 150)), info.history().entries());
        assertEquals(Set.of(1L), info.inSync());
    }

    private void beat(String brokerName, long brokerId, long maxOffset) {
        closeables.add(new HeartbeatingBroker(client, brokerName, brokerId, maxOffset, 200));
    }
}
