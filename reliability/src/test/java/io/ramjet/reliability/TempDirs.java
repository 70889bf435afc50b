package io.ramjet.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing what a test left in temporary directories, and measuring what it left. */
final class TempDirs {

    private TempDirs() {
    }

    /** Deletes a file or a directory tree; what cannot be deleted stays, silently. */
    static void delete(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left for the OS's temporary-file cleanup
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // as above
        }
    }

    /** The sum of the sizes of the regular files under {@code dir}. */
    static long bytesUnder(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // deleted while walking
                }
            }).sum();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
