package io.ramjet.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
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
     * Renames {@code from}, whose contents the caller has forced (and told {@code recorder}), to
     * {@code to} (replacing it), then forces the directory of {@code to} and tells {@code recorder}.
     */
    public static void move(Path from, Path to, ForceRecorder recorder) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(to.getParent());
        recorder.renamed(from, to);
    }

    /**
     * Writes {@code bytes} to {@code temporary}, forces it and renames it to {@code file}: the
     * file is then either the old one or the new one whole, even after a power loss.
     */
    public static void replace(Path file, Path temporary, ByteBuffer bytes, ForceRecorder recorder)
            throws IOException {
        try (FileChannel channel = OwnerOnly.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer remaining = bytes.duplicate();
            while (remaining.hasRemaining()) {
                channel.write(remaining);
            }
            channel.force(true);
        }
        recorder.replaced(temporary, bytes.duplicate());
        move(temporary, file, recorder);
    }

    /** {@link #forceDirectory(Path)}, then tells {@code recorder}. */
    public static void forceDirectory(Path directory, ForceRecorder recorder) {
        forceDirectory(directory);
        recorder.directoryForced(directory);
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
