package io.ramjet.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

final class RecoveryTestSupport {

    private RecoveryTestSupport() {
    }

    static void deleteConsumeQueues(Path storeDirectory) throws IOException {
        try (Stream<Path> paths = Files.walk(storeDirectory.resolve("consumequeue"))) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
