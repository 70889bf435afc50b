package io.ramjet.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint: a small record laid out by {@link CheckpointDescriptor}, kept as the two copies
 * {@code checkpoint} and {@code checkpoint.b} of an {@link AlternatingFile}, so that writing one
 * costs a single force and no rename; the newest valid copy counts. A directory written before
 * there were two copies holds {@code checkpoint} alone, which is read as before.
 *
 * <p>Threading: {@link #read} once, then {@link #write} from one thread at a time. After a
 * crash: the copy being written may be torn, fails its checksum and is ignored with a warning;
 * the other holds the previous checkpoint. With neither valid, recovery scans the whole log.
 */
final class CheckpointFile {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointFile.class);

    private final Path directory;
    private final AlternatingFile copies;

    CheckpointFile(Path directory, ForceRecorder recorder) {
        this.directory = directory;
        this.copies = new AlternatingFile(directory, "checkpoint", recorder);
    }

    /** The recovery offset of the newest valid copy, or empty if there is none. */
    OptionalLong read() {
        Optional<Long> offset = copies.readNewest(this::decode, Long::longValue);
        if (offset.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(offset.get());
    }

    private Optional<Long> decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (bytes.length != CheckpointDescriptor.LENGTH
                || buffer.getInt(CheckpointDescriptor.MAGIC_OFFSET) != CheckpointDescriptor.MAGIC
                || buffer.getInt(CheckpointDescriptor.VERSION_OFFSET) != CheckpointDescriptor.VERSION
                || buffer.getInt(CheckpointDescriptor.CRC_OFFSET) != crc(buffer)) {
            LOG.warn("a checkpoint copy in {} is invalid: using the other copy, or the start of the log", directory);
            return Optional.empty();
        }
        return Optional.of(buffer.getLong(CheckpointDescriptor.RECOVERY_OFFSET_OFFSET));
    }

    void write(long recoveryOffset) {
        ByteBuffer buffer = ByteBuffer.allocate(CheckpointDescriptor.LENGTH);
        buffer.putInt(CheckpointDescriptor.MAGIC_OFFSET, CheckpointDescriptor.MAGIC);
        buffer.putInt(CheckpointDescriptor.VERSION_OFFSET, CheckpointDescriptor.VERSION);
        buffer.putLong(CheckpointDescriptor.RECOVERY_OFFSET_OFFSET, recoveryOffset);
        buffer.putLong(CheckpointDescriptor.TIMESTAMP_OFFSET, System.currentTimeMillis());
        buffer.putInt(CheckpointDescriptor.CRC_OFFSET, crc(buffer));
        copies.write(buffer);
    }

    /** Deletes both copies: the next open of the store scans the whole retained log. */
    void forget() {
        copies.deleteAll();
    }

    /** Sets the checkpoint back to {@code recoveryOffset}, below what either copy holds. */
    void lowerTo(long recoveryOffset) {
        copies.deleteAll();
        write(recoveryOffset);
    }

    private static int crc(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.slice(0, CheckpointDescriptor.CRC_OFFSET));
        return (int) crc.getValue();
    }
}
