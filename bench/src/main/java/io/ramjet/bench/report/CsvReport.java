package io.ramjet.bench.report;

import io.ramjet.bench.result.Cell;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The results as CSV (RFC 4180 quoting): workload, row, unit, higher_is_better, then per peer
 * its figure (the median of its rounds; empty where there is none), the lowest and highest round,
 * the number of rounds with a figure and its note (the n/a or error text), then per peer other
 * than Ramjet the ratio Ramjet/peer.
 */
public final class CsvReport {

    private CsvReport() {
    }

    public static String render(Results results) {
        StringBuilder out = new StringBuilder("workload,row,unit,higher_is_better");
        for (String peer : results.peers()) {
            out.append(',').append(peer).append(',').append(peer).append("_low,").append(peer).append("_high,")
                    .append(peer).append("_runs,").append(peer).append("_note");
        }
        for (String peer : results.others()) {
            out.append(',').append(Ratios.header(peer));
        }
        out.append("\r\n");
        for (Row row : results.rows()) {
            out.append(row.workload()).append(',').append(quote(row.label())).append(',').append(row.unit())
                    .append(',').append(row.higherIsBetter());
            for (String peer : results.peers()) {
                Cell cell = results.cell(row, peer);
                out.append(',').append(number(cell, cell.value())).append(',').append(number(cell, cell.low()))
                        .append(',').append(number(cell, cell.high())).append(',').append(cell.runs())
                        .append(',').append(cell.hasValue() ? "" : quote(cell.text()));
            }
            for (String peer : results.others()) {
                OptionalDouble r = results.ratio(row, peer);
                out.append(',').append(r.isPresent() ? String.format(Locale.ROOT, "%.4f", r.getAsDouble()) : "");
            }
            out.append("\r\n");
        }
        return out.toString();
    }

    /**
     * The settings of the run and of each peer as CSV: subject (run or a peer), setting, value,
     * in the order recorded.
     */
    public static String renderSettings(Results results) {
        StringBuilder out = new StringBuilder("subject,setting,value\r\n");
        results.settings().forEach((subject, values) -> values.forEach((k, v) -> out.append(quote(subject))
                .append(',').append(quote(k)).append(',').append(quote(v)).append("\r\n")));
        return out.toString();
    }

    private static String number(Cell cell, double v) {
        return cell.hasValue() ? String.format(Locale.ROOT, "%.3f", v) : "";
    }

    static String quote(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
