package io.ramjet.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.bench.Cell;
import io.ramjet.bench.Results;
import io.ramjet.bench.Row;
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
        assertEquals("workload,row,unit,higher_is_better,ramjet,ramjet_note,artemis,artemis_note,rocketmq,"
                + "rocketmq_note,ramjet/artemis,ramjet/rocketmq", lines[0]);
        assertEquals("1,persistent send,msg/s,true,300.000,,150.000,,,\"n/a: a, \"\"quoted\"\" reason\",2.0000,",
                lines[1]);
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
}
