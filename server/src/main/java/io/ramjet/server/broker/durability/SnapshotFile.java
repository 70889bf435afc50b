package io.ramjet.server.broker.durability;

import io.ramjet.server.broker.record.SnapshotDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The consumption snapshot on disk ({@link SnapshotDescriptor}): written to a temporary file,
 * forced, then atomically renamed over the previous one, so a crash leaves either the old or
 * the new snapshot whole. A damaged file is reported and ignored: the broker then replays the
 * CommitLog from the store's own recovery point. Called by one thread at a time.
 */
public final class SnapshotFile {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotFile.class);

    private final Path file;
    private final Path tmp;

    public SnapshotFile(Path directory) {
        this.file = directory.resolve("consumption.snapshot");
        this.tmp = directory.resolve("consumption.snapshot.tmp");
    }

    public Optional<SnapshotDescriptor.Contents> read() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(SnapshotDescriptor.decode(Files.readAllBytes(file)));
        } catch (IOException | RuntimeException e) {
            LOG.error("ignoring damaged snapshot {}: {}", file, e.toString());
            return Optional.empty();
        }
    }

    public void write(SnapshotDescriptor.Contents contents) {
        try {
            Files.createDirectories(file.getParent());
            byte[] bytes = SnapshotDescriptor.encode(contents);
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            } catch (IOException ignored) {
                // not every platform can force a directory; the rename itself is atomic
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Deletes the snapshot: for a log truncated below its position, whose state must then be
     * replayed from the whole log.
     */
    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
    }
}
