package io.ramjet.bench.report;

import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * The results as a fixed-width table for a terminal: one line per row, a column per peer, then a
 * ratio column per peer other than Ramjet. Long error texts are cut to keep lines readable; the
 * CSV holds them whole.
 */
public final class TextTable {

    private static final int MAX_CELL = 40;

    private TextTable() {
    }

    public static String render(Results results) {
        List<String> header = new ArrayList<>();
        header.add("workload");
        header.addAll(results.peers());
        if (results.peers().contains(Results.RAMJET)) {
            results.others().forEach(p -> header.add(Ratios.header(p)));
        }
        List<List<String>> lines = new ArrayList<>();
        lines.add(header);
        for (Row row : results.rows()) {
            List<String> line = new ArrayList<>();
            line.add(row.title());
            for (String peer : results.peers()) {
                line.add(cut(results.cell(row, peer).format()));
            }
            if (results.peers().contains(Results.RAMJET)) {
                results.others().forEach(p -> line.add(Ratios.format(results, row, p)));
            }
            lines.add(line);
        }
        int[] widths = new int[header.size()];
        for (List<String> line : lines) {
            for (int i = 0; i < line.size(); i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> line : lines) {
            for (int i = 0; i < line.size(); i++) {
                String cell = line.get(i);
                out.append(i == 0 ? pad(cell, widths[i]) : "  " + padLeft(cell, widths[i]));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String cut(String s) {
        return s.length() <= MAX_CELL ? s : s.substring(0, MAX_CELL - 3) + "...";
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width) {
        return " ".repeat(width - s.length()) + s;
    }
}
