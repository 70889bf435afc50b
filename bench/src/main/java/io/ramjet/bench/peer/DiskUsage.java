package io.ramjet.bench.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The bytes a directory takes on disk, as {@code du} counts them (allocated blocks, so a sparse
 * file counts what it really holds and a preallocated one all of it).
 */
final class DiskUsage {

    private DiskUsage() {
    }

    static long of(Path directory) throws IOException {
        Process du = new ProcessBuilder("du", "-s", "-B1", directory.toString()).redirectErrorStream(true).start();
        String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (du.waitFor() != 0) {
                throw new IOException("du " + directory + ": " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for du", e);
        }
        return Long.parseLong(out.split("\\s+")[0]);
    }
}
