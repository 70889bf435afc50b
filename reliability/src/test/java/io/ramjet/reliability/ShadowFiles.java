package io.ramjet.reliability;

import io.ramjet.storage.ForceRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A {@link ForceRecorder} that keeps, beside a broker's data directory, a shadow copy of every
 * file holding exactly the bytes its completed forces made durable (written in place at their
 * positions) and follows durable renames. A {@code kill -9} keeps what the shadow's writes put in
 * the page cache, so after one the shadow is the disk as a power cut at that instant would have
 * left it, up to the forces whose recording the kill interrupted (which no answer rested on yet:
 * the recorder is told before anything that rests on a force happens). Thread-safe.
 */
final class ShadowFiles implements ForceRecorder {

    private final Path dataDir;
    private final Path shadowDir;

    ShadowFiles(Path dataDir, Path shadowDir) {
        this.dataDir = dataDir.toAbsolutePath();
        this.shadowDir = shadowDir.toAbsolutePath();
    }

    private Path shadowOf(Path file) {
        return shadowDir.resolve(dataDir.relativize(file.toAbsolutePath()).toString());
    }

    @Override
    public synchronized void forced(Path file, long position, ByteBuffer bytes) {
        Path shadow = shadowOf(file);
        try {
            Files.createDirectories(shadow.getParent());
            try (FileChannel channel = FileChannel.open(shadow, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ByteBuffer remaining = bytes.duplicate();
                long at = position;
                while (remaining.hasRemaining()) {
                    at += channel.write(remaining, at);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot shadow " + file, e);
        }
    }

    @Override
    public synchronized void replaced(Path file, ByteBuffer bytes) {
        Path shadow = shadowOf(file);
        try {
            Files.createDirectories(shadow.getParent());
            try (FileChannel channel = FileChannel.open(shadow, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer remaining = bytes.duplicate();
                while (remaining.hasRemaining()) {
                    channel.write(remaining);
                }
            }
            Files.write(exactMarker(shadow), new byte[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot shadow " + file, e);
        }
    }

    /** Beside a shadow: its file is exactly as long as the shadow (it was replaced whole), not longer. */
    static Path exactMarker(Path shadow) {
        return shadow.resolveSibling(shadow.getFileName() + ".exact-length");
    }

    @Override
    public synchronized void renamed(Path from, Path to) {
        Path source = shadowOf(from);
        Path target = shadowOf(to);
        try {
            Files.createDirectories(target.getParent());
            Files.deleteIfExists(exactMarker(target));
            if (Files.exists(source)) {
                Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
                if (Files.exists(exactMarker(source))) {
                    Files.move(exactMarker(source), exactMarker(target), StandardCopyOption.REPLACE_EXISTING);
                }
            } else {
                Files.deleteIfExists(target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot shadow the rename of " + from, e);
        }
    }
}
