package io.ramjet.bench.report;

import io.ramjet.bench.result.Cell;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads back what {@link CsvReport} wrote: {@code results.csv} into {@link Results} (the ratio
 * columns are left out: they follow from the figures) and {@code setup.csv} into its settings.
 */
public final class ResultsCsv {

    private static final String[] PEER_COLUMNS = {"", "_low", "_high", "_runs", "_note"};

    private ResultsCsv() {
    }

    /** The results of {@code results} (results.csv) with the settings of {@code setup} (setup.csv, may be empty). */
    public static Results read(String results, String setup) {
        List<List<String>> lines = parse(results);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("results.csv is empty");
        }
        List<String> header = lines.get(0);
        List<String> peers = new ArrayList<>();
        for (int i = 4; i + PEER_COLUMNS.length <= header.size(); i += PEER_COLUMNS.length) {
            if (!header.get(i + 1).equals(header.get(i) + "_low")) {
                break;
            }
            peers.add(header.get(i));
        }
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("results.csv has no peer columns: " + header);
        }
        Results out = new Results(peers);
        for (List<String> line : lines.subList(1, lines.size())) {
            Row row = new Row(Integer.parseInt(line.get(0)), line.get(1), line.get(2), Boolean.parseBoolean(line.get(3)));
            for (int p = 0; p < peers.size(); p++) {
                int at = 4 + p * PEER_COLUMNS.length;
                String note = line.get(at + 4);
                out.put(row, peers.get(p), note.isEmpty() ? new Cell(Double.parseDouble(line.get(at)),
                        null, Double.parseDouble(line.get(at + 1)), Double.parseDouble(line.get(at + 2)),
                        Integer.parseInt(line.get(at + 3))) : new Cell(Double.NaN, note, Double.NaN, Double.NaN, 0));
            }
        }
        List<List<String>> settings = parse(setup);
        Map<String, Map<String, String>> bySubject = new LinkedHashMap<>();
        for (List<String> line : settings.subList(Math.min(1, settings.size()), settings.size())) {
            bySubject.computeIfAbsent(line.get(0), s -> new LinkedHashMap<>()).put(line.get(1), line.get(2));
        }
        bySubject.forEach(out::settings);
        return out;
    }

    /** RFC 4180: fields split at commas, quoted fields with doubled quotes, lines ended by CRLF or LF. */
    static List<List<String>> parse(String csv) {
        List<List<String>> lines = new ArrayList<>();
        List<String> line = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < csv.length(); i++) {
            char c = csv.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                any = true;
            } else if (c == ',') {
                line.add(field.toString());
                field.setLength(0);
                any = true;
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < csv.length() && csv.charAt(i + 1) == '\n') {
                    i++;
                }
                if (any || field.length() > 0) {
                    line.add(field.toString());
                    lines.add(line);
                }
                line = new ArrayList<>();
                field.setLength(0);
                any = false;
            } else {
                field.append(c);
                any = true;
            }
        }
        if (any || field.length() > 0) {
            line.add(field.toString());
            lines.add(line);
        }
        return lines;
    }
}
