package io.ramjet.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins the ConsumeQueue entry ({@link ConsumeQueueEntryDescriptor}) and the checkpoint
 * ({@link CheckpointDescriptor}) to bytes: what this version writes, and what it reads from
 * files an earlier version wrote. The CommitLog record is pinned in the record module.
 */
class LayoutGoldenBytesTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final String FIRST_FILE = "00000000000000000000";

    private static final String ENTRY = "0102030405060708" // CommitLog offset
            + "0000012c" // record size 300
            + "1122334455667788"; // tag signature

    private static final String CHECKPOINT = "aa1ec0c0" // magic
            + "00000001" // version
            + "0000000000100000" // recovery offset 1 MiB
            + "0000018bcfe56800" // written at 1700000000000
            + "5cba7db2"; // CRC32C of [0, 24)

    @Test
    void aConsumeQueueEntryIsWrittenAsItsGoldenBytes(@TempDir Path dir) throws Exception {
        ConsumeQueue queue = new ConsumeQueue(dir, 1024, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        queue.put(0, 0x0102030405060708L, 300, 0x1122334455667788L);
        queue.flush(new DirectoryForces());
        queue.close();
        byte[] file = Files.readAllBytes(dir.resolve(FIRST_FILE));
        assertEquals(ENTRY, HEX.formatHex(file, 0, ConsumeQueueEntryDescriptor.LENGTH));
    }

    @Test
    void aConsumeQueueEntryIsReadFromItsGoldenBytes(@TempDir Path dir) throws Exception {
        byte[] file = new byte[ConsumeQueueEntryDescriptor.FIRST_FILE_ENTRIES * ConsumeQueueEntryDescriptor.LENGTH];
        byte[] entry = HEX.parseHex(ENTRY);
        System.arraycopy(entry, 0, file, 0, entry.length);
        Files.write(dir.resolve(FIRST_FILE), file);
        ConsumeQueue queue = new ConsumeQueue(dir, 1024, 0, Runnable::run, FirstFilePool.none(), ForceRecorder.NONE);
        try {
            assertEquals(List.of(new ConsumeQueueEntry(0, 0x0102030405060708L, 300, 0x1122334455667788L)),
                    queue.read(0, 1));
        } finally {
            queue.close();
        }
    }

    @Test
    void aCheckpointIsWrittenInItsGoldenLayout(@TempDir Path dir) throws Exception {
        new CheckpointFile(dir, ForceRecorder.NONE).write(1 << 20);
        byte[] written = Files.readAllBytes(dir.resolve("checkpoint"));
        assertEquals(CheckpointDescriptor.LENGTH, written.length);
        assertEquals(CHECKPOINT.substring(0, 32), HEX.formatHex(written, 0, 16), "magic, version, recovery offset");
        CRC32C crc = new CRC32C();
        crc.update(written, 0, 24);
        assertEquals((int) crc.getValue(), ByteBuffer.wrap(written).getInt(24), "CRC32C of [0, 24) at 24");
    }

    @Test
    void aCheckpointIsReadFromItsGoldenBytes(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("checkpoint"), HEX.parseHex(CHECKPOINT));
        assertEquals(OptionalLong.of(1 << 20), new CheckpointFile(dir, ForceRecorder.NONE).read());
        byte[] damaged = HEX.parseHex(CHECKPOINT);
        damaged[10] ^= 1;
        Files.write(dir.resolve("checkpoint"), damaged);
        assertEquals(OptionalLong.empty(), new CheckpointFile(dir, ForceRecorder.NONE).read(), "a checksum that does not match");
    }

    @Test
    void theGoldenCheckpointCarriesItsOwnChecksum() {
        byte[] bytes = HEX.parseHex(CHECKPOINT);
        CRC32C crc = new CRC32C();
        crc.update(Arrays.copyOf(bytes, 24));
        assertEquals((int) crc.getValue(), ByteBuffer.wrap(bytes).getInt(24));
    }
}
