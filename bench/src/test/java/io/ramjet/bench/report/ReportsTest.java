package io.ramjet.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.bench.result.Cell;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class ReportsTest {

    private static final Row SEND = new Row(1, "persistent send", "msg/s", true);
    private static final Row LATENCY = new Row(4, "latency p50", "us", false);

    private static Results results() {
        Results r = new Results(List.of("ramjet", "artemis", "rocketmq"));
        r.put(SEND, "ramjet", Cell.of(300));
        r.put(SEND, "artemis", Cell.of(150));
        r.put(SEND, "rocketmq", Cell.notApplicable("a, \"quoted\" reason"));
        r.put(LATENCY, "ramjet", Cell.of(100));
        r.put(LATENCY, "artemis", Cell.of(400));
        r.put(LATENCY, "rocketmq", Cell.error(new IllegalStateException("broker <gone>")));
        return r;
    }

    @Test
    void ratioIsRamjetOverThePeerAndAbsentWithoutBothFigures() {
        Results r = results();
        assertEquals(2.0, r.ratio(SEND, "artemis").getAsDouble(), 1e-9);
        assertEquals(0.25, r.ratio(LATENCY, "artemis").getAsDouble(), 1e-9);
        assertTrue(r.ratio(SEND, "rocketmq").isEmpty());
    }

    @Test
    void csvHasOneLinePerRowWithFiguresNotesAndRatiosQuoted() {
        String[] lines = CsvReport.render(results()).split("\r\n");
        assertEquals(3, lines.length);
        assertEquals("workload,row,unit,higher_is_better,ramjet,ramjet_low,ramjet_high,ramjet_runs,ramjet_note,"
                + "artemis,artemis_low,artemis_high,artemis_runs,artemis_note,rocketmq,rocketmq_low,rocketmq_high,"
                + "rocketmq_runs,rocketmq_note,ramjet/artemis,ramjet/rocketmq", lines[0]);
        assertEquals("1,persistent send,msg/s,true,300.000,300.000,300.000,1,,150.000,150.000,150.000,1,,,,,0,"
                + "\"n/a: a, \"\"quoted\"\" reason\",2.0000,", lines[1]);
    }

    @Test
    void roundsCombineIntoTheirMedianWithTheirRangeAndFailedRoundsLeftOut() {
        Results[] rounds = new Results[3];
        double[] sends = {300, 100, 200};
        for (int i = 0; i < 3; i++) {
            rounds[i] = new Results(List.of("ramjet", "artemis"));
            rounds[i].put(SEND, "ramjet", Cell.of(sends[i]));
            rounds[i].put(SEND, "artemis", i == 1 ? Cell.error(new IllegalStateException("once")) : Cell.of(50 * (i + 1)));
        }
        Results median = Results.median(List.of(rounds));

        Cell ramjet = median.cell(SEND, "ramjet");
        assertEquals(200, ramjet.value(), 1e-9);
        assertEquals(100, ramjet.low(), 1e-9);
        assertEquals(300, ramjet.high(), 1e-9);
        assertEquals(3, ramjet.runs());
        assertEquals("200 ~100%", ramjet.format());
        Cell artemis = median.cell(SEND, "artemis");
        assertEquals(100, artemis.value(), 1e-9);
        assertEquals(2, artemis.runs());
        assertEquals(2.0, median.ratio(SEND, "artemis").getAsDouble(), 1e-9);
    }

    @Test
    void aRowThatFailedInEveryRoundKeepsItsReason() {
        Results one = new Results(List.of("ramjet"));
        one.put(SEND, "ramjet", Cell.error(new IllegalStateException("broker <gone>")));
        Results two = new Results(List.of("ramjet"));
        two.put(SEND, "ramjet", Cell.error(new IllegalStateException("again")));

        assertEquals("error: broker <gone>", Results.median(List.of(one, two)).cell(SEND, "ramjet").text());
    }

    @Test
    void svgIsWellFormedXmlNamingEveryRow() throws Exception {
        String svg = SvgChart.render(results(), "a <test> run");
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", doc.getDocumentElement().getTagName());
        assertTrue(svg.contains("1. persistent send (msg/s)"));
        assertTrue(svg.contains("2.00x") && svg.contains("0.25x"), svg);
    }

    @Test
    void tableShowsFiguresReasonsAndRatios() {
        String table = TextTable.render(results());
        assertTrue(table.contains("ramjet/artemis"), table);
        assertTrue(table.contains("2.00x") && table.contains("0.25x"), table);
        assertTrue(table.contains("error: broker <gone>"), table);
    }

    @Test
    void resultsReadBackFromTheirCsvAreTheResultsWritten() {
        Results written = results();
        written.settings(Results.RUN, java.util.Map.of("started", "2026-12-07T06:00:00Z"));
        written.settings("artemis", java.util.Map.of("journal-type", "NIO (libaio not loaded: a, \"reason\")"));
        Results read = ResultsCsv.read(CsvReport.render(written), CsvReport.renderSettings(written));

        assertEquals(written.peers(), read.peers());
        assertEquals(written.rows(), read.rows());
        for (Row row : written.rows()) {
            for (String peer : written.peers()) {
                assertEquals(written.cell(row, peer).format(), read.cell(row, peer).format(), row + " " + peer);
            }
        }
        assertEquals(written.settings(), read.settings());
    }

    @Test
    void thePageGetsANewResultsSectionAndKeepsItsHandWrittenOnes() {
        String page = "# Benchmarks\n\nWhy the rows are fair.\n\n" + Reports.BEGIN + "\nan older run\n" + Reports.END
                + "\n\n## Design\n\nHand-written.\n";
        Results r = results();
        r.settings(Results.RUN, java.util.Map.of("started", "2026-12-07T06:00:00Z", "cpu", "a CPU"));
        r.settings("artemis", java.util.Map.of("journal-type", "ASYNCIO"));

        String out = Reports.replaceSection(page, Reports.section(r));

        assertTrue(out.startsWith("# Benchmarks\n\nWhy the rows are fair.\n\n" + Reports.BEGIN), out);
        assertTrue(out.endsWith(Reports.END + "\n\n## Design\n\nHand-written.\n"), out);
        assertFalse(out.contains("an older run"), out);
        assertTrue(out.contains("Run 2026-12-07T06:00:00Z") && out.contains("a CPU"), out);
        assertTrue(out.contains("| 1. persistent send (msg/s) | 300 | 150 | n/a: a, \"quoted\" reason | 2.00x | - |"), out);
        assertTrue(out.contains("| journal-type | `ASYNCIO` |"), out);
        assertTrue(out.contains("](benchmarks/results.svg)") && out.contains("](benchmarks/efficiency.svg)"), out);
    }

    @Test
    void theSectionStatesTheFanOutRowsShapeAtTheRunsCount() {
        Results r = results();
        r.settings(Results.RUN, java.util.Map.of("count", "0.02", "client heap", "1g"));

        String section = Reports.section(r);

        assertTrue(section.contains("one producer sends 2,000 messages asynchronously whatever the row's subscribers"),
                section);
        assertTrue(section.contains("opened before the timer"), section);
        assertTrue(section.contains("client heap 1g"), section);
    }

    @Test
    void aPageWithoutTheGeneratedSectionIsRefusedWithTheLinesToAdd() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Reports.replaceSection("# Benchmarks\n", "figures"));
        assertTrue(e.getMessage().contains(Reports.BEGIN), e.getMessage());
    }
}
