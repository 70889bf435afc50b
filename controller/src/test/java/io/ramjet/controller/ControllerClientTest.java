package io.ramjet.controller;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client's own contract against three real Ratis controllers in this JVM on 127.0.0.1. */
class ControllerClientTest {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
    /** One Ratis request begun just before the deadline (a third of the timeout), and room for a loaded machine. */
    private static final Duration SLACK = Duration.ofMillis(1500);
    private static final Duration SETTLE = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private ControllerGroup group;
    private final ControllerNode[] nodes = new ControllerNode[3];
    private ControllerClient client;

    @BeforeEach
    void startGroupOfThree() throws Exception {
        group = FreePorts.groupOf(3);
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = ControllerNode.start(config(i));
        }
        client = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT);
        await("a first register").atMost(SETTLE).ignoreExceptions()
                .until(() -> client.register("g", 0, "h:0", 10).ok(), ok -> ok);
    }

    private ControllerConfig config(int i) {
        return new ControllerConfig("n" + i, dir.resolve("n" + i), group, Duration.ofSeconds(3), false,
                Duration.ofMillis(1000), 5, 16 * 1024, TestClusterSecret.SECRET);
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        for (ControllerNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }

    @Test
    void aCallToAGroupWithoutQuorumFailsWithinItsTimeout() throws Exception {
        stopNode(1);
        stopNode(2);

        // writes: a read may still be answered by a leader that has not yet stepped down
        assertGivesUpAtItsDeadline(() -> client.register("g", 1, "h:1", 0));
        assertGivesUpAtItsDeadline(() -> client.alterInSyncSet("g", 0, 1, Set.of(0L)));
    }

    @Test
    void aNodeRestartedAtItsAddressIsReadAgainByTheSameClient() throws Exception {
        ReplicaInfo before = await("n1 applied the register").atMost(SETTLE).ignoreExceptions()
                .until(() -> client.replicaInfoAt("n1", "g").info(), info -> info.masterId() == 0);
        // no call in between: the client last saw n1 before it stopped
        stopNode(1);
        nodes[1] = ControllerNode.start(config(1));
        ReplicaInfo after = await("n1 read again after its restart").atMost(SETTLE).ignoreExceptions()
                .until(() -> client.replicaInfoAt("n1", "g").info(), info -> info.masterId() == 0);
        assertEquals(before, after);
    }

    private void stopNode(int i) throws Exception {
        nodes[i].close();
        nodes[i] = null;
    }

    private static void assertGivesUpAtItsDeadline(Executable call) {
        long start = System.nanoTime();
        assertTimeoutPreemptively(CALL_TIMEOUT.plus(SLACK),
                () -> assertThrows(ControllerUnavailableException.class, call));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        // it stops when an attempt after its next pause (100 ms) would begin past the deadline
        assertTrue(took.compareTo(CALL_TIMEOUT.minusMillis(100)) >= 0, "gave up before its timeout, after " + took);
    }
}
