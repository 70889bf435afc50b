package io.ramjet.bench.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A directory under java.io.tmpdir holding a peer's data, deleted with everything in it on close. */
public final class TemporaryDirectory implements AutoCloseable {

    private final Path path;

    public TemporaryDirectory(String prefix) throws IOException {
        this.path = Files.createTempDirectory(prefix);
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
