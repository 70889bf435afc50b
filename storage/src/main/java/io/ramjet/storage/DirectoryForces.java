package io.ramjet.storage;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The directory forces of one flush of many new files (a checkpoint after thousands of new
 * queues, which share the store's and their destinations' directories): a directory is forced
 * once for every file renamed into it before that force began, and again only for a file renamed
 * after it. Nothing on disk of its own; one thread (the checkpoint's).
 */
final class DirectoryForces {

    /** When the last force of each directory began, by {@link System#nanoTime()}. */
    private final Map<Path, Long> began = new HashMap<>();
    private int forces;

    /** Forces {@code directory} unless a force of it began after {@code renamedNanos}, when a file was renamed into it. */
    void forceSince(Path directory, long renamedNanos) {
        Long last = began.get(directory);
        if (last == null || last <= renamedNanos) {
            long now = System.nanoTime();
            DurableRename.forceDirectory(directory);
            began.put(directory, now);
            forces++;
        }
    }

    /** How many directory forces it made. */
    int forces() {
        return forces;
    }
}
