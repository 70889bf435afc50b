package io.ramjet.reliability;

import jakarta.jms.Session;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The first kill test: a group of three brokers (SYNC, two in sync at least) under three
 * controllers, two producers sending PERSISTENT messages synchronously to four queues, each
 * consumed in one mode (AUTO, CLIENT, DUPS_OK, transacted). The master is killed at a random
 * moment, then the new master in turn (each killed broker restarted and back in sync first):
 * every send that returned is received, nothing confirmed comes back, no message is stored twice
 * (a stored duplicate arrives as a new message, without JMSRedelivered), no send throws (the
 * failovers stay below the application), a slave is master within {@link #ELECTION_BOUND}; and
 * the killed masters, back as slaves, hold the master's CommitLog.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MasterKillTest {

    private static final String TEST = "MasterKillTest";
    /** The controller replaces a silent master within brokerTimeout x 1.25 and a Raft commit; the rest is load. */
    private static final Duration ELECTION_BOUND = Duration.ofSeconds(10);
    private static final int FAILOVERS = 2;
    private static final List<Integer> MODES = List.of(Session.AUTO_ACKNOWLEDGE, Session.CLIENT_ACKNOWLEDGE,
            Session.DUPS_OK_ACKNOWLEDGE, Session.SESSION_TRANSACTED);

    @RegisterExtension
    static final HaCluster CLUSTER = HaCluster.shared();

    @Test
    @Order(1)
    void everyReturnedSendIsDeliveredOnceAcrossTwoFailovers() throws Exception {
        long seed = Chaos.seed();
        Random random = new Random(seed);
        Traffic traffic = Traffic.start(CLUSTER.factory(), "ha.failover", MODES, 2, 50, seed);
        List<HaCluster.Failover> failovers = new ArrayList<>();
        List<Long> sendGapsMillis = new ArrayList<>();
        try {
            traffic.awaitFlowing(ChildJvm.START_TIMEOUT);
            for (int i = 0; i < FAILOVERS; i++) {
                Thread.sleep(1_000 + random.nextInt(2_000));
                HaCluster.Failover failover = CLUSTER.killMaster(ELECTION_BOUND.multipliedBy(3));
                failovers.add(failover);
                sendGapsMillis.add(traffic.awaitSendsAfter(failover.electedAtNanos(), Duration.ofSeconds(60)));
                CLUSTER.rejoin(failover.killedId());
            }
            Thread.sleep(1_000);
        } finally {
            traffic.finish();
        }
        List<Executable> checks = traffic.checks(TEST, failovers.size(), "failovers=" + failovers
                + " firstSendAfterElectionMs=" + sendGapsMillis + " seed=" + seed);
        checks.add(() -> assertEquals(List.of(), traffic.sendFailures().stream().map(Exception::toString).toList(),
                "sends that threw: a failover must not reach the application"));
        for (HaCluster.Failover f : failovers) {
            checks.add(() -> assertTrue(f.electedMillis() <= ELECTION_BOUND.toMillis(),
                    "a new master within " + ELECTION_BOUND + ": " + f));
        }
        assertAll(checks);
    }

    @Test
    @Order(2)
    void killedMastersRejoinAsSlavesHoldingTheMastersCommitLog() throws Exception {
        CLUSTER.awaitInfo("all three in sync", Duration.ofSeconds(60), info -> info.inSync().size() == HaCluster.BROKERS);
        assertAll(CLUSTER.stopAndCompareLogs(TEST));
    }
}
