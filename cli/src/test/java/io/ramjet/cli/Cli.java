package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs ramjet-admin in this JVM against one deployment, with {@code --json}, and parses what it printed. */
final class Cli {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String url;

    Cli(String url) {
        this.url = url;
    }

    /** Runs the command and answers its exit code. */
    int run(String... args) {
        return run(new StringWriter(), new StringWriter(), args);
    }

    private int run(StringWriter out, StringWriter err, String... args) {
        List<String> line = new ArrayList<>(List.of(args));
        line.addAll(List.of("--url", url, "--json"));
        return RamjetAdmin.run(new PrintWriter(out), new PrintWriter(err), line.toArray(String[]::new));
    }

    /** Runs the command, expects exit code 0, and answers its output parsed. */
    JsonNode json(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = run(out, err, args);
        assertEquals(0, exit, () -> String.join(" ", args) + " failed: " + err);
        try {
            return JSON.readTree(out.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + out, e);
        }
    }

    /** Runs the command, expects exit code {@code exit}, and answers what it printed on stderr. */
    String failure(int exit, String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        assertEquals(exit, run(out, err, args), () -> String.join(" ", args) + " printed " + out + err);
        return err.toString();
    }

    /** The row of {@code queue stat} for one destination, null when there is none. */
    JsonNode stat(String name) {
        for (JsonNode row : json("queue", "stat")) {
            if (row.get("name").asText().equals(name)) {
                return row;
            }
        }
        return null;
    }
}
