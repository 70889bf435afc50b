package io.ramjet.reliability;

import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A controller kill: while the group serves, the NameServer holding the controller
 * group's Raft leader is killed; the two left elect a leader among themselves, and when the
 * master is killed next they elect a new master, with nothing lost, nothing confirmed coming
 * back and nothing stored twice.
 */
class ControllerLeaderKillTest {

    private static final String TEST = "ControllerLeaderKillTest";
    private static final Duration ELECTION_BOUND = Duration.ofSeconds(10);

    @RegisterExtension
    static final HaCluster CLUSTER = HaCluster.shared();

    @Test
    void theTwoControllersLeftElectANewMaster() throws Exception {
        long seed = Chaos.seed();
        Random random = new Random(seed);
        Traffic traffic = Traffic.start(CLUSTER.factory(), "ha.ctrlkill",
                List.of(Session.CLIENT_ACKNOWLEDGE, Session.SESSION_TRANSACTED), 1, 50, seed);
        String oldLeader;
        String newLeader;
        long leaderMillis;
        HaCluster.Failover failover;
        long sendGap;
        try {
            traffic.awaitFlowing(ChildJvm.START_TIMEOUT);
            Thread.sleep(1_000 + random.nextInt(1_000));
            CLUSTER.awaitInfo("a controller answer", Duration.ofSeconds(30), info -> true);
            oldLeader = CLUSTER.controller().leader().orElseThrow();
            long killedAt = System.nanoTime();
            CLUSTER.nameServer(oldLeader).kill();
            CLUSTER.awaitInfo("an answer from a new controller leader", Duration.ofSeconds(30),
                    info -> !CLUSTER.controller().leader().orElse(oldLeader).equals(oldLeader));
            leaderMillis = Duration.ofNanos(System.nanoTime() - killedAt).toMillis();
            newLeader = CLUSTER.controller().leader().orElseThrow();
            Thread.sleep(500 + random.nextInt(1_000));
            failover = CLUSTER.killMaster(ELECTION_BOUND.multipliedBy(3));
            sendGap = traffic.awaitSendsAfter(failover.electedAtNanos(), Duration.ofSeconds(60));
            CLUSTER.rejoin(failover.killedId());
        } finally {
            traffic.finish();
        }
        List<Executable> checks = traffic.checks(TEST, 2, "controllerLeader=" + oldLeader + "->" + newLeader
                + " leaderElectedMs=" + leaderMillis + " failover=" + failover + " firstSendAfterElectionMs=" + sendGap
                + " seed=" + seed);
        String leaderBefore = oldLeader;
        String leaderAfter = newLeader;
        checks.add(() -> assertNotEquals(leaderBefore, leaderAfter, "the controller leader"));
        checks.add(() -> assertTrue(failover.electedMillis() <= ELECTION_BOUND.toMillis(),
                "a new master within " + ELECTION_BOUND + ": " + failover));
        assertAll(checks);
    }
}
