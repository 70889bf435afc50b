package io.ramjet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.bench.peer.ClientProcess;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import io.ramjet.bench.result.Rows;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The TLS and scaled-out peers start with their clients each in a JVM of its own on
 * that product's client library and Netty, at the client heap every peer's client JVM gets, and
 * move a tiny workload 2 (non-persistent send and drain): each peer is started once. Left out,
 * for the suite's time: {@code ramjet-metrics} (the {@code ramjet} peer's broker and client with
 * the scrape endpoint on), the three-group peer (the two-group one's code with one more broker) and
 * RocketMQ's two- and three-broker peers (RocketMQ's own client, which BenchSmokeTest's
 * {@code rocketmq} peer runs in its client JVM, against the same broker main started four and six
 * times). No speed is asserted.
 */
class OtherPeersTest {

    /** Artemis's journal buffer timeout, given so that its brokers start without their sync test (BenchSmokeTest runs that). */
    private static final long GIVEN_TIMEOUT_NANOS = 40_000;

    private static final Map<String, String> CLIENT_NETTY = Map.of("ramjet-tls", "4.2.", "artemis-tls", "4.1.119.Final",
            "ramjet-groups2", "4.2.");
    private static final List<String> PEERS = List.of("ramjet-tls", "artemis-tls", "ramjet-groups2");

    @Test
    void everyPeersClientJvmStartsOnItsProductsClientAndMovesWorkload2() {
        Bench bench = new Bench();
        new CommandLine(bench).parseArgs("--smoke", "--count", "0.0001", "--heap", "256m",
                "--artemis-journal-buffer-timeout", Long.toString(GIVEN_TIMEOUT_NANOS));

        Results results = Bench.run(bench.config(), null, PEERS, List.of(2));

        assertEquals(PEERS, results.peers());
        for (Row row : Rows.of(List.of(2))) {
            for (String peer : PEERS) {
                assertTrue(results.cell(row, peer).hasValue(), row.title() + " on " + peer + ": "
                        + results.cell(row, peer).text());
            }
        }
        for (String peer : PEERS) {
            Map<String, String> settings = results.settings().get(peer);
            String product = peer.startsWith("artemis") ? "artemis" : peer.startsWith("rocketmq") ? "rocketmq" : "ramjet";
            assertTrue(settings.get("client-class-path").startsWith(product + "'s client class path"),
                    peer + "'s client not on its product's client class path: " + settings);
            assertTrue(settings.get("client-netty").startsWith(CLIENT_NETTY.get(peer)), peer + ": " + settings);
            assertTrue(settings.get("client-java").contains("-Xmx" + ClientProcess.HEAP), peer + ": " + settings);
        }
    }
}
