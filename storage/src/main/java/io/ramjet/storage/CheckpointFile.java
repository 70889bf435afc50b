package io.ramjet.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint: one small file laid out by {@link CheckpointDescriptor}, replaced whole by
 * writing a temporary file, forcing it and renaming it over the old one.
 *
 * <p>Threading: {@link #write} from one thread at a time. After a crash: the file is the old or
 * the new checkpoint, never a mix; one that fails its checksum is ignored with a warning, and
 * recovery then scans the whole log.
 */
final class CheckpointFile {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointFile.class);

    private final Path path;
    private final Path temporary;

    CheckpointFile(Path directory) {
        this.path = directory.resolve("checkpoint");
        this.temporary = directory.resolve("checkpoint.tmp");
    }

    /** The recovery offset, or empty if there is no valid checkpoint. */
    OptionalLong read() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException e) {
            throw new StoreException("cannot read " + path, e);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (bytes.length != CheckpointDescriptor.LENGTH
                || buffer.getInt(CheckpointDescriptor.MAGIC_OFFSET) != CheckpointDescriptor.MAGIC
                || buffer.getInt(CheckpointDescriptor.VERSION_OFFSET) != CheckpointDescriptor.VERSION
                || buffer.getInt(CheckpointDescriptor.CRC_OFFSET) != crc(buffer)) {
            LOG.warn("checkpoint {} is invalid: recovering from the start of the log", path);
            return OptionalLong.empty();
        }
        return OptionalLong.of(buffer.getLong(CheckpointDescriptor.RECOVERY_OFFSET_OFFSET));
    }

    void write(long recoveryOffset) {
        ByteBuffer buffer = ByteBuffer.allocate(CheckpointDescriptor.LENGTH);
        buffer.putInt(CheckpointDescriptor.MAGIC_OFFSET, CheckpointDescriptor.MAGIC);
        buffer.putInt(CheckpointDescriptor.VERSION_OFFSET, CheckpointDescriptor.VERSION);
        buffer.putLong(CheckpointDescriptor.RECOVERY_OFFSET_OFFSET, recoveryOffset);
        buffer.putLong(CheckpointDescriptor.TIMESTAMP_OFFSET, System.currentTimeMillis());
        buffer.putInt(CheckpointDescriptor.CRC_OFFSET, crc(buffer));
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException e) {
            throw new StoreException("cannot write " + temporary, e);
        }
        try {
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new StoreException("cannot replace " + path, e);
        }
    }

    private static int crc(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.slice(0, CheckpointDescriptor.CRC_OFFSET));
        return (int) crc.getValue();
    }
}
