package io.ramjet.reliability;

import static org.junit.jupiter.api.Assertions.assertAll;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A transaction too large for one COMMIT record (a small {@code maxRecordSize} stands for a
 * million messages under the default) moves a queue to another ({@link LargeMoves}) while the
 * broker is killed with {@code kill -9} at a random instant of its commit, drawn from how long
 * an undisturbed commit took; after each restart every round is all or nothing.
 */
class LargeTransactionKillTest {

    private static final String TEST = "LargeTransactionKillTest";
    private static final int MESSAGES = 2_000;
    private static final int KILLS = 2;

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void aLargeTransactionKilledDuringItsCommitIsAllOrNothing() throws Exception {
        BrokerProcess broker = brokers.start("large-transaction", Brokers.properties("maxRecordSize", "16k"));
        long seed = Chaos.seed();
        Random random = new Random(seed);
        LargeMoves moves = new LargeMoves(Jms.factory(broker), "rel.large.", MESSAGES);
        long commitMillis = moves.firstRound();
        StringBuilder delays = new StringBuilder();
        for (int round = 1; round <= KILLS; round++) {
            long delay = random.nextLong(commitMillis);
            delays.append(round == 1 ? "" : ",").append(delay);
            moves.faultyRound(round, () -> {
                Thread.sleep(delay); // the random instant of the kill within the commit, not a condition
                broker.kill();
            });
            broker.restart();
        }
        assertAll(moves.checks(TEST, "kills=" + KILLS + " killAfterMs=" + delays + " seed=" + seed));
    }
}
