package io.ramjet.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.FileVisitResult;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
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

    /** The sum of the sizes of the regular files under {@code dir}; files renamed or deleted meanwhile count 0. */
    static long bytesUnder(Path dir) throws IOException {
        long[] sum = {0};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile()) {
                    sum[0] += attributes.size();
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        return sum[0];
    }
}
