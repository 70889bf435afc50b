package io.ramjet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.bench.peer.ReplicatedPeer;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import io.ramjet.bench.result.Rows;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The replicated peers start (every slave or backup in sync before the first figure), move the
 * smoke counts of workload 1, and {@link FailoverTime} sees a send succeed on the backup after
 * the live broker's JVM is killed. No speed is asserted.
 */
class ReplicatedPeersTest {

    /**
     * Artemis's journal buffer timeout, given so that its brokers start without their sync test
     * (BenchSmokeTest runs that); a value such as a fast disk measures.
     */
    private static final long GIVEN_TIMEOUT_NANOS = 40_000;

    @Test
    void everyReplicatedPeerGivesAFigureOnEveryRowOfWorkload1(@TempDir Path out) {
        Bench bench = new Bench();
        int code = new CommandLine(bench).execute("--smoke", "--workloads", "1", "--peers",
                "ramjet-sync2,ramjet-async2,artemis-replicated", "--out", out.toString(),
                "--artemis-journal-buffer-timeout", Long.toString(GIVEN_TIMEOUT_NANOS));

        assertEquals(0, code);
        Results results = bench.results();
        for (Row row : Rows.of(List.of(1))) {
            for (String peer : results.peers()) {
                assertTrue(results.cell(row, peer).hasValue(), row.title() + " on " + peer + ": "
                        + results.cell(row, peer).text());
            }
        }
    }

    @Test
    void failoverTimeRunsFromTheKillToTheFirstSendTheBackupAnswers() throws Exception {
        try (ReplicatedPeer pair = ReplicatedPeer.artemis("256m", 1 << 20, GIVEN_TIMEOUT_NANOS)) {
            FailoverTime.Outcome outcome = FailoverTime.measure(pair.connectionFactory(), pair);

            assertFalse(pair.isAlive(), "the live broker's JVM was not killed");
            assertTrue(outcome.millis() > 0, outcome.toString());
        }
    }
}
