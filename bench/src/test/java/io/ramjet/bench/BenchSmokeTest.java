package io.ramjet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Runs the whole benchmark in smoke mode, every peer and every workload, and checks that the
 * harness filled every row and wrote its files. It asserts no speed: the figures of a few
 * thousand messages on a shared machine mean nothing.
 */
class BenchSmokeTest {

    @Test
    void smokeRunGivesEveryPeerAFigureOnEveryRowAndWritesCsvAndSvg(@TempDir Path out) throws Exception {
        Bench bench = new Bench();
        int code = new CommandLine(bench).execute("--smoke", "--out", out.toString());

        assertEquals(0, code);
        Results results = bench.results();
        List<Row> rows = Rows.of(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9));
        assertEquals(rows, results.rows());
        for (Row row : rows) {
            for (String peer : results.peers()) {
                Cell cell = results.cell(row, peer);
                if (!cell.hasValue() && expectedGap(peer, row, cell)) {
                    continue;
                }
                assertTrue(cell.hasValue(), row.title() + " on " + peer + ": " + cell.text());
            }
        }
        List<String> csv = Files.readAllLines(bench.csv(), StandardCharsets.UTF_8);
        assertEquals(rows.size() + 1, csv.size());
        assertTrue(csv.get(0).contains("ramjet/artemis") && csv.get(0).contains("ramjet/rocketmq"), csv.get(0));
        String svg = Files.readString(bench.svg(), StandardCharsets.UTF_8);
        String efficiency = Files.readString(bench.efficiencySvg(), StandardCharsets.UTF_8);
        assertTrue(svg.startsWith("<svg"), svg);
        for (Row row : rows) {
            assertTrue((Rows.isEfficiency(row) ? efficiency : svg).contains(row.title()),
                    row.title() + " missing from its chart");
        }
        String setup = Files.readString(bench.setup(), StandardCharsets.UTF_8);
        assertTrue(setup.contains("artemis,journal-type,") && setup.contains("artemis,journal-buffer-timeout,")
                && setup.contains("run,started,") && setup.contains("rocketmq,"), setup);
    }

    /**
     * The gaps the benchmark explains rather than fills: RocketMQ has no transaction of several
     * messages nor temporary queues, its consumers acknowledge only as DUPS_OK does, the many-queues workload is not written for it, and its
     * column reads "did not run" where its brokers cannot start on a machine.
     */
    private static boolean expectedGap(String peer, Row row, Cell cell) {
        return peer.equals("rocketmq") && cell.text().startsWith("n/a:")
                && (row.workload() == 3 || row.workload() == 9 || cell.text().contains("did not run")
                || row.workload() == 1 && cell.text().contains("as DUPS_OK does"));
    }
}
