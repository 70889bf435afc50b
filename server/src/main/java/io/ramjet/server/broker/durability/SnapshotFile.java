package io.ramjet.server.broker.durability;

import io.ramjet.storage.OwnerOnly;
import io.ramjet.server.broker.record.SnapshotDescriptor;
import io.ramjet.storage.AlternatingFile;
import io.ramjet.storage.ForceRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The consumption snapshot on disk ({@link SnapshotDescriptor}, which ends in its own checksum),
 * kept as the two copies {@code consumption.snapshot} and {@code consumption.snapshot.b} of an
 * {@link AlternatingFile}: each snapshot overwrites the older copy in place with one force, no
 * rename, and the copy with the highest position counts. A crash while one is written leaves the
 * other, the previous snapshot, whole; a damaged copy is reported and ignored, and with neither
 * valid the broker replays the CommitLog from the store's own recovery point. A snapshot at the
 * position of the last one replaces it (the other copy is deleted), since a tie would not choose
 * it. A directory written before there were two copies holds the first alone, which is read as
 * before. Called by one thread at a time, {@link #read} before {@link #write}.
 */
public final class SnapshotFile {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotFile.class);

    private final Path directory;
    private final AlternatingFile copies;
    /** The position of the newest copy read or written; -1 for none. */
    private long position = -1;

    /** @param recorder told of the copies' forces (see {@link ForceRecorder}) */
    public SnapshotFile(Path directory, ForceRecorder recorder) {
        this.directory = directory;
        this.copies = new AlternatingFile(directory, "consumption.snapshot", recorder);
    }

    public Optional<SnapshotDescriptor.Contents> read() {
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        Optional<SnapshotDescriptor.Contents> newest = copies.readNewest(this::decode,
                SnapshotDescriptor.Contents::position);
        position = newest.map(SnapshotDescriptor.Contents::position).orElse(-1L);
        return newest;
    }

    private Optional<SnapshotDescriptor.Contents> decode(byte[] bytes) {
        try {
            return Optional.of(SnapshotDescriptor.decode(bytes));
        } catch (IOException | RuntimeException e) {
            LOG.error("ignoring a damaged snapshot copy in {}: {}", directory, e.toString());
            return Optional.empty();
        }
    }

    public void write(SnapshotDescriptor.Contents contents) {
        try {
            OwnerOnly.createDirectories(directory);
            ByteBuffer bytes = ByteBuffer.wrap(SnapshotDescriptor.encode(contents));
            if (contents.position() == position) {
                // state logged nowhere changed (NON_PERSISTENT acknowledgements): this copy must win
                copies.replace(bytes);
            } else {
                copies.write(bytes);
            }
            position = contents.position();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the snapshot in " + directory, e);
        }
    }

    /**
     * Deletes the snapshot: for a log truncated below its position, whose state must then be
     * replayed from the whole log.
     */
    public void delete() {
        if (Files.isDirectory(directory)) {
            copies.deleteAll();
        }
        position = -1;
    }
}
