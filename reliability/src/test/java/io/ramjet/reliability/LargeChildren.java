package io.ramjet.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What the large-message tests ask of {@link LargeMessageChild} processes and of a broker's data
 * directory: one receive's result, and how many CommitLog segments are left.
 */
final class LargeChildren {

    static final String CLIENT_HEAP = "-Xmx64m";
    static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(120);

    private LargeChildren() {
    }

    /**
     * The result line of one receive from {@code url}'s {@code queue} without its time
     * ({@code received LENGTH MISMATCH_AT REDELIVERED}), empty when no message came within 5 s.
     */
    static Optional<String> receiveOne(String url, String queue, String name) throws Exception {
        try (ClientProcess child = ClientProcess.start(name, CLIENT_HEAP, LargeMessageChild.class, "receive",
                url, queue, "5000")) {
            assertEquals(0, child.exit(CLIENT_TIMEOUT), name + " exit; output " + child.lines());
            if (child.line("none").isPresent()) {
                return Optional.empty();
            }
            return Optional.of(withoutMillis(child.line("received ").orElseThrow()));
        }
    }

    /** A child's result line without its last word, the time the step took. */
    static String withoutMillis(String result) {
        return result.substring(0, result.lastIndexOf(' '));
    }

    /** The files in the CommitLog directory under {@code dataDir}. */
    static long segments(Path dataDir) {
        try (Stream<Path> files = Files.list(dataDir.resolve("commitlog"))) {
            return files.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
