package io.ramjet.reliability;

import io.ramjet.controller.ReplicaInfo;
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
 * A cut between the master and one slave. The cut is the slave frozen with
 * {@code kill -STOP}: every connection it holds goes silent, as behind a partition (a TCP proxy
 * cannot stand between one slave and its master, since every slave connects to the address the
 * master registered with the controllers, the one clients use too). The master drops the slave
 * from the in-sync set at the controllers, sends go on with {@code minInSyncReplicas=2} met by
 * the other slave, the master killed then is replaced by that other slave, never by the one
 * behind, and the cut slave, let run again, catches up with the new master and rejoins the set.
 */
class ReplicaCutTest {

    private static final String TEST = "ReplicaCutTest";
    /** replicaMaxLagMs (4 s), then one controller commit; the rest is load. */
    private static final Duration SHRINK_BOUND = Duration.ofSeconds(20);

    @RegisterExtension
    static final HaCluster CLUSTER = HaCluster.shared();

    @Test
    void theCutSlaveLeavesTheInSyncSetIsNotElectedAndRejoinsOnceHealed() throws Exception {
        long seed = Chaos.seed();
        Random random = new Random(seed);
        Traffic traffic = Traffic.start(CLUSTER.factory(), "ha.cut",
                List.of(Session.CLIENT_ACKNOWLEDGE, Session.SESSION_TRANSACTED), 1, 50, seed);
        long masterId = CLUSTER.master().brokerId();
        GroupBroker cut = CLUSTER.brokers().stream().filter(b -> b.brokerId() != masterId).findFirst().orElseThrow();
        long shrinkMillis;
        long sendsWhileCutMillis;
        HaCluster.Failover failover;
        long rejoinMillis;
        try {
            traffic.awaitFlowing(ChildJvm.START_TIMEOUT);
            Thread.sleep(1_000 + random.nextInt(1_000));
            long cutAt = System.nanoTime();
            cut.jvm().pause();
            try {
                CLUSTER.awaitInfo("the in-sync set without the cut slave " + cut.brokerId(), SHRINK_BOUND,
                        info -> info.masterId() == masterId && !info.inSync().contains(cut.brokerId()));
                shrinkMillis = Duration.ofNanos(System.nanoTime() - cutAt).toMillis();
                sendsWhileCutMillis = traffic.awaitSendsAfter(System.nanoTime(), Duration.ofSeconds(30));
                failover = CLUSTER.killMaster(Duration.ofSeconds(30));
            } finally {
                cut.jvm().resume();
            }
            long healedAt = System.nanoTime();
            CLUSTER.awaitInfo("the cut slave " + cut.brokerId() + " back in sync", ChildJvm.START_TIMEOUT,
                    info -> info.inSync().contains(cut.brokerId()));
            rejoinMillis = Duration.ofNanos(System.nanoTime() - healedAt).toMillis();
            CLUSTER.rejoin(failover.killedId());
        } finally {
            traffic.finish();
        }
        ReplicaInfo last = CLUSTER.info();
        List<Executable> checks = traffic.checks(TEST, 1, "cutSlave=" + cut.brokerId() + " inSyncWithoutItMs="
                + shrinkMillis + " sendWhileCutMs=" + sendsWhileCutMillis + " failover=" + failover
                + " caughtUpAfterHealMs=" + rejoinMillis + " finally=" + last + " seed=" + seed);
        HaCluster.Failover f = failover;
        long sendGap = sendsWhileCutMillis;
        // not "the other slave": on a loaded machine the controllers may move the master between
        // the test's start and the kill (a master's heartbeats late by the broker timeout)
        checks.add(() -> assertNotEquals(cut.brokerId(), f.newMasterId(), "the new master is the cut slave "
                + cut.brokerId() + ", which was behind"));
        checks.add(() -> assertTrue(sendGap >= 0, "no send returned while the slave was cut off"));
        assertAll(checks);
    }
}
