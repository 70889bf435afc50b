package io.ramjet.bench.workload;

import java.nio.file.Files;
import java.nio.file.Path;

/** A directory the build prepares under bench/target, wherever the benchmark is started from. */
public final class BuildDirectory {

    private BuildDirectory() {
    }

    /**
     * The directory a system property names (Maven sets it), else {@code child} under
     * bench/target when started from the repository root, else under target.
     */
    public static Path of(String property, String child) {
        String configured = System.getProperty(property);
        if (configured != null) {
            return Path.of(configured);
        }
        return Files.isDirectory(Path.of("bench", "target")) ? Path.of("bench", "target", child)
                : Path.of("target", child);
    }
}
