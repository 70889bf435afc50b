package io.ramjet.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * How the store and the broker create their files and directories: readable by their owner only
 * (files {@code rw-------}, directories {@code rwx------}) where the file system has POSIX
 * permissions, since every message body is in them. The permissions are given at creation, so no
 * other user ever sees the file open; a umask can only take bits away from them. Files and
 * directories that already exist keep theirs. Stateless; thread-safe.
 */
public final class OwnerOnly {

    private static final FileAttribute<?> FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<?> DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private OwnerOnly() {
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** {@link Files#createDirectories}, each directory it creates owner-only. */
    public static Path createDirectories(Path directory) throws IOException {
        return posix(directory) ? Files.createDirectories(directory, DIRECTORY) : Files.createDirectories(directory);
    }

    /** {@link FileChannel#open} with {@code options}; a file it creates is owner-only. */
    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        Set<OpenOption> set = Set.of(options);
        return posix(file) ? FileChannel.open(file, set, FILE) : FileChannel.open(file, set);
    }

    /** Writes {@code bytes} as the whole file (not forced); a file it creates is owner-only. */
    public static void write(Path file, byte[] bytes) throws IOException {
        try (FileChannel channel = open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }
}
