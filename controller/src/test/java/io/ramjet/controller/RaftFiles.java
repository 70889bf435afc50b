package io.ramjet.controller;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The file names in one folder of a controller's Ratis storage ({@code <dataDir>/<group id>/current}
 * holds the log segments, {@code .../sm} the snapshots), listed without following files that Ratis
 * may rename or delete meanwhile.
 */
final class RaftFiles {

    private RaftFiles() {
    }

    static List<String> names(Path dataDir, String folder) throws IOException {
        try (Stream<Path> groups = Files.list(dataDir)) {
            Path group = groups.filter(Files::isDirectory).findFirst().orElseThrow();
            try (Stream<Path> files = Files.list(group.resolve(folder))) {
                return files.map(file -> file.getFileName().toString()).toList();
            }
        }
    }
}
