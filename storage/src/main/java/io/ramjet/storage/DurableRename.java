package io.ramjet.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Renames that survive a power loss. A rename changes a directory, not the file, and forcing the
 * file does not force the directory: on a file system without a journal (ext4 can be mounted
 * so) a power loss can take back a rename whose directory was not forced, and with
 * it every byte forced into the file under its new name. A kill -9 keeps the page cache, so no
 * crash test of a process sees the difference.
 */
public final class DurableRename {

    private DurableRename() {
    }

    /**
     * Renames {@code from}, whose contents the caller has forced, to {@code to} (replacing it),
     * then forces the directory of {@code to}.
     */
    public static void move(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(to.getParent());
        ForceRecorder.current().renamed(from, to);
    }

    /** Forces a directory's entries (a file created, renamed or deleted in it) to the disk. */
    public static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException ignored) {
            // not every platform can open a directory to force it; the files' contents are forced
        }
    }
}
