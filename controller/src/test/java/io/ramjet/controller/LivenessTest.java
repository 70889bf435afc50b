package io.ramjet.controller;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LivenessTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong(100 * SECOND);
    private final Liveness liveness = new Liveness(Duration.ofSeconds(2), Duration.ofSeconds(10), clock::get);

    @Test
    void aNewLeaderGivesEveryMasterOneSilentTimeoutToReachIt() {
        liveness.restart();
        clock.addAndGet(9 * SECOND);
        assertTrue(liveness.masterMayBeAlive("g", 0, 1));
        clock.addAndGet(2 * SECOND);
        assertFalse(liveness.masterMayBeAlive("g", 0, 1));
    }

    @Test
    void aMasterNoReplicaLostIsAliveForTheSilentTimeoutAfterItsLastHeartbeat() {
        clock.addAndGet(20 * SECOND);
        liveness.heard("g", 0, 5);
        clock.addAndGet(9 * SECOND);
        assertTrue(liveness.masterMayBeAlive("g", 0, 1));
        clock.addAndGet(2 * SECOND);
        assertFalse(liveness.masterMayBeAlive("g", 0, 1));
    }

    @Test
    void aMasterAReplicaLostIsGoneOnceItsLeaseEnds() {
        clock.addAndGet(20 * SECOND);
        liveness.heard("g", 0, 5);
        clock.addAndGet(SECOND / 2);
        liveness.masterLost("g", 1);
        clock.addAndGet(SECOND);
        assertTrue(liveness.masterMayBeAlive("g", 0, 1), "within its lease");
        liveness.masterLost("g", 1);
        clock.addAndGet(SECOND);
        assertFalse(liveness.masterMayBeAlive("g", 0, 1));
    }

    @Test
    void aReportOfAnotherEpochOrOlderThanTheLeaseDoesNotCount() {
        clock.addAndGet(20 * SECOND);
        liveness.heard("g", 0, 5);
        liveness.masterLost("g", 1);
        clock.addAndGet(3 * SECOND);
        assertTrue(liveness.masterMayBeAlive("g", 0, 1), "the report is older than the lease");
        liveness.masterLost("g", 1);
        assertTrue(liveness.masterMayBeAlive("g", 0, 2), "the report names an older master");
        assertFalse(liveness.masterMayBeAlive("g", 0, 1));
    }

    @Test
    void aNewLeaderWaitsOneLeaseAfterItsStartForAMasterAReplicaLost() {
        liveness.restart();
        clock.addAndGet(SECOND);
        liveness.masterLost("g", 1);
        assertTrue(liveness.masterMayBeAlive("g", 0, 1));
        clock.addAndGet(SECOND + SECOND / 2);
        liveness.masterLost("g", 1);
        assertFalse(liveness.masterMayBeAlive("g", 0, 1));
    }

    @Test
    void candidatesAreTheBrokersOfTheGroupHeardWithinTheLeaseWithTheirLastOffsets() {
        liveness.heard("g", 1, 10);
        liveness.heard("other", 2, 10);
        clock.addAndGet(SECOND);
        liveness.heard("g", 3, 30);
        liveness.heard("g", 1, 20);
        clock.addAndGet(SECOND + SECOND / 2);
        liveness.heard("g", 4, 40);
        assertEquals(Map.of(1L, 20L, 3L, 30L, 4L, 40L), liveness.aliveOffsets("g"));
    }

    @Test
    void aNewLeaderForgetsWhatAnEarlierTermHeard() {
        liveness.heard("g", 1, 10);
        liveness.masterLost("g", 1);
        liveness.restart();
        assertEquals(Map.of(), liveness.aliveOffsets("g"));
        clock.addAndGet(3 * SECOND);
        assertTrue(liveness.masterMayBeAlive("g", 0, 1), "no report heard in this term");
    }

    @Test
    void aBrokerLateByMoreThanTheLeaseIsRecentWithinTheSilentTimeoutButNotAlive() {
        liveness.heard("g", 1, 70);
        clock.addAndGet(3 * SECOND);
        assertEquals(Map.of(), liveness.aliveOffsets("g"));
        assertEquals(Map.of(1L, 70L), liveness.recentOffsets("g"));
        clock.addAndGet(8 * SECOND);
        assertEquals(Map.of(), liveness.recentOffsets("g"));
    }
}
