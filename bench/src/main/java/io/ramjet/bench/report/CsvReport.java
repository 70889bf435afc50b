package io.ramjet.bench.report;

import io.ramjet.bench.Results;
import io.ramjet.bench.Row;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The results as CSV (RFC 4180 quoting): workload, row, unit, higher_is_better, then per peer
 * its figure (empty where there is none) and its note (the n/a or error text), then per peer
 * other than Ramjet the ratio Ramjet/peer.
 */
public final class CsvReport {

    private CsvReport() {
    }

    public static String render(Results results) {
        StringBuilder out = new StringBuilder("workload,row,unit,higher_is_better");
        for (String peer : results.peers()) {
            out.append(',').append(peer).append(',').append(peer).append("_note");
        }
        for (String peer : results.others()) {
            out.append(',').append(Ratios.header(peer));
        }
        out.append("\r\n");
        for (Row row : results.rows()) {
            out.append(row.workload()).append(',').append(quote(row.label())).append(',').append(row.unit())
                    .append(',').append(row.higherIsBetter());
            for (String peer : results.peers()) {
                var cell = results.cell(row, peer);
                out.append(',').append(cell.hasValue() ? String.format(Locale.ROOT, "%.3f", cell.value()) : "")
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

    static String quote(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
