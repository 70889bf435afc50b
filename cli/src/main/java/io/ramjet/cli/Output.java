package io.ramjet.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a command prints: a table of rows for a human, or with {@code --json} the rows as one
 * JSON value (an array of objects, or one object) for a script.
 */
public final class Output {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A column: its heading and how a row shows in it. */
    public record Column<T>(String heading, Function<T, Object> value) {
    }

    private final PrintWriter out;
    private final boolean json;

    public Output(PrintWriter out, boolean json) {
        this.out = out;
        this.json = json;
    }

    public boolean json() {
        return json;
    }

    /** The rows as a table of the columns, or as a JSON array of the rows with every field of theirs. */
    @SafeVarargs
    public final <T> void table(List<T> rows, Column<T>... columns) {
        if (json) {
            value(rows);
            return;
        }
        List<String[]> cells = new ArrayList<>();
        String[] headings = new String[columns.length];
        for (int c = 0; c < columns.length; c++) {
            headings[c] = columns[c].heading();
        }
        cells.add(headings);
        for (T row : rows) {
            String[] line = new String[columns.length];
            for (int c = 0; c < columns.length; c++) {
                Object v = columns[c].value().apply(row);
                line[c] = v == null ? "-" : v.toString();
            }
            cells.add(line);
        }
        int[] widths = new int[columns.length];
        for (String[] line : cells) {
            for (int c = 0; c < line.length; c++) {
                widths[c] = Math.max(widths[c], line[c].length());
            }
        }
        for (String[] line : cells) {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < line.length; c++) {
                b.append(c == 0 ? "" : "  ").append(String.format("%-" + widths[c] + "s", line[c]));
            }
            out.println(b.toString().stripTrailing());
        }
        out.flush();
    }

    /** One value: as JSON with {@code --json}, else {@code human}. */
    public void value(Object value, String human) {
        if (json) {
            value(value);
        } else {
            out.println(human);
            out.flush();
        }
    }

    private void value(Object value) {
        try {
            out.println(JSON.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value + " as JSON", e);
        }
        out.flush();
    }
}
