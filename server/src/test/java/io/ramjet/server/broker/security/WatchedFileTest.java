package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.nio.file.attribute.FileTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WatchedFileTest {

    @TempDir
    Path dir;

    private static void rewrite(Path file, String text, long secondsLater) throws Exception {
        FileTime before = Files.getLastModifiedTime(file);
        Files.writeString(file, text);
        // a file system with coarse timestamps could leave the time unchanged: move it on explicitly
        Files.setLastModifiedTime(file, FileTime.from(before.toInstant().plusSeconds(secondsLater)));
    }

    @Test
    void aChangedFileIsReadAgainAndAnUnchangedOneIsNot() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "one");
        int[] reads = {0};
        WatchedFile<String> watched = new WatchedFile<>(file, f -> {
            reads[0]++;
            return Files.readString(f);
        });
        assertEquals("one", watched.current());
        assertEquals("one", watched.current());
        assertEquals(1, reads[0]);
        rewrite(file, "two", 5);
        assertEquals("two", watched.current());
        assertEquals(2, reads[0]);
    }

    @Test
    void aChangeThatDoesNotParseKeepsTheLastGoodContent() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "1");
        WatchedFile<Integer> watched = new WatchedFile<>(file, f -> Integer.parseInt(Files.readString(f).trim()));
        rewrite(file, "not a number", 5);
        assertEquals(1, watched.current());
        rewrite(file, "3", 10);
        assertEquals(3, watched.current());
    }

    @Test
    void withAnIntervalTheFileIsLookedAtOnlyOnceTheIntervalPassed() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "one");
        long[] now = {0};
        WatchedFile<String> watched = new WatchedFile<>(file, Files::readString, Duration.ofSeconds(1), () -> now[0]);
        rewrite(file, "two", 5);
        now[0] = Duration.ofMillis(999).toNanos();
        assertEquals("one", watched.current(), "not looked at within the interval");
        now[0] = Duration.ofSeconds(1).toNanos();
        assertEquals("two", watched.current(), "looked at once the interval passed");
        rewrite(file, "three", 10);
        now[0] += Duration.ofMillis(500).toNanos();
        assertEquals("two", watched.current(), "the interval runs from the last look");
        now[0] += Duration.ofMillis(500).toNanos();
        assertEquals("three", watched.current());
    }

    @Test
    void theFirstReadMustSucceed() {
        assertThrows(UncheckedIOException.class, () -> new WatchedFile<>(dir.resolve("missing"), Files::readString));
    }
}
