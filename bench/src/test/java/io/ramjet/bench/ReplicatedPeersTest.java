package io.ramjet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.bench.peer.Peer;
import io.ramjet.bench.peer.ReplicatedPeer;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import io.ramjet.bench.result.Rows;
import io.ramjet.bench.workload.BenchConfig;
import io.ramjet.bench.workload.Failover;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import picocli.CommandLine;

/**
 * The replicated peers start (every slave or backup in sync before the first figure), move the
 * smoke counts of workload 1 through their client JVMs, and {@link FailoverTime}'s producer, in
 * the pair's client JVM, then sees a send succeed on the backup after the live broker's JVM is
 * killed: the Artemis pair is started once for both. No speed is asserted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicatedPeersTest {

    /**
     * Artemis's journal buffer timeout, given so that its brokers start without their sync test
     * (BenchSmokeTest runs that); a value such as a fast disk measures.
     */
    private static final long GIVEN_TIMEOUT_NANOS = 40_000;

    private static final List<String> PEERS = List.of("ramjet-sync2", "ramjet-async2", "artemis-replicated");

    private static BenchConfig config;
    /** The peers of {@link #PEERS}, each started once for both tests. */
    private static final List<Peer> peers = new ArrayList<>();
    private static ReplicatedPeer artemis;

    @BeforeAll
    static void startThePeers() throws IOException {
        Bench bench = new Bench();
        new CommandLine(bench).parseArgs("--smoke", "--count", "0.0001", "--heap", "256m",
                "--artemis-journal-buffer-timeout", Long.toString(GIVEN_TIMEOUT_NANOS));
        config = bench.config();
        for (String name : PEERS) {
            peers.add(Bench.start(name, config));
        }
        artemis = (ReplicatedPeer) peers.get(2);
    }

    @AfterAll
    static void stop() throws IOException {
        for (Peer p : peers) {
            p.close();
        }
    }

    @Test
    @Order(1)
    void everyReplicatedPeerGivesAFigureOnEveryRowOfWorkload1() {
        Results results = Bench.runOn(config, null, peers, List.of(1));

        assertEquals(PEERS, results.peers());
        for (Row row : Rows.of(List.of(1))) {
            for (String peer : results.peers()) {
                assertTrue(results.cell(row, peer).hasValue(), row.title() + " on " + peer + ": "
                        + results.cell(row, peer).text());
            }
        }
        assertTrue(artemis.isAlive(), "a peer the test started was stopped by the run");
    }

    @Test
    @Order(2)
    void failoverTimeRunsFromTheKillToTheFirstSendTheBackupAnswers() throws Exception {
        Failover.Outcome outcome = FailoverTime.measure(artemis);

        assertFalse(artemis.isAlive(), "the live broker's JVM was not killed");
        assertTrue(outcome.millis() > 0, outcome.toString());
    }
}
