package io.ramjet.server.broker.security;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a security file (users, roles, permissions): {@code key = value} each, blank lines
 * and lines starting with {@code #} skipped, key and value trimmed; the value starts after the
 * first {@code =}, so it may hold more. An error names the file and line, never its value.
 */
final class KeyValueLines {

    /** One {@code key = value} line and its number (from 1). */
    record Line(int number, String key, String value) {

        /** An error about this line of {@code source}. */
        IllegalArgumentException error(String source, String message) {
            return new IllegalArgumentException(source + " line " + number + ": " + message);
        }
    }

    private KeyValueLines() {
    }

    /**
     * @param source   what to call the lines in an error message
     * @param expected the form of a line, for the error about one without a key or {@code =}
     */
    static List<Line> parse(List<String> lines, String source, String expected) {
        List<Line> parsed = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int equals = line.indexOf('=');
            String key = equals < 0 ? "" : line.substring(0, equals).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": expected " + expected);
            }
            parsed.add(new Line(i + 1, key, line.substring(equals + 1).trim()));
        }
        return parsed;
    }
}
