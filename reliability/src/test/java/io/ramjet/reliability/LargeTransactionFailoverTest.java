package io.ramjet.reliability;

import static org.junit.jupiter.api.Assertions.assertAll;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A transaction too large for one COMMIT record ({@code maxRecordSize} 16k) on a replicated group
 * (SYNC, two in sync at least): the master is killed with {@code kill -9} at a random instant of
 * the commit ({@link LargeMoves}); the new master, which had the chain's bytes only as far as they
 * were replicated, must hold each round's transaction whole or not at all.
 */
class LargeTransactionFailoverTest {

    private static final String TEST = "LargeTransactionFailoverTest";
    private static final Duration ELECTION_BOUND = Duration.ofSeconds(30);
    private static final int MESSAGES = 1_000;
    private static final int FAILOVERS = 2;

    @RegisterExtension
    static final HaCluster CLUSTER = new HaCluster("largetx", Duration.ofMillis(2_500),
            Brokers.properties("maxRecordSize", "16k"), "requestTimeout=30000");

    @Test
    void aMasterKilledDuringALargeCommitLeavesTheNewMasterAllOrNothing() throws Exception {
        long seed = Chaos.seed();
        Random random = new Random(seed);
        LargeMoves moves = new LargeMoves(CLUSTER.factory(), "rel.largeha.", MESSAGES);
        long commitMillis = moves.firstRound();
        List<HaCluster.Failover> failovers = new ArrayList<>();
        for (int round = 1; round <= FAILOVERS; round++) {
            long delay = random.nextLong(commitMillis);
            moves.faultyRound(round, () -> {
                Thread.sleep(delay); // the random instant of the kill within the commit, not a condition
                failovers.add(CLUSTER.killMaster(ELECTION_BOUND));
            });
            CLUSTER.rejoin(failovers.get(failovers.size() - 1).killedId());
        }
        assertAll(moves.checks(TEST, "failovers=" + failovers + " seed=" + seed));
    }
}
