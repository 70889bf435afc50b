package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlternatingFileTest {

    @TempDir
    Path dir;

    /** A long whose copy is valid when it is 8 bytes long and its first byte is not 0x7F. */
    private static Optional<Long> decode(byte[] bytes) {
        return bytes.length == 8 && bytes[0] != 0x7F ? Optional.of(ByteBuffer.wrap(bytes).getLong()) : Optional.empty();
    }

    private static ByteBuffer bytesOf(long value) {
        return ByteBuffer.allocate(8).putLong(0, value);
    }

    private Optional<Long> readNewest(AlternatingFile file) {
        return file.readNewest(AlternatingFileTest::decode, Long::longValue);
    }

    /** A fresh file written with each value in turn. */
    private void writeInTurn(long... values) {
        AlternatingFile file = new AlternatingFile(dir, "state", ForceRecorder.NONE);
        readNewest(file);
        for (long value : values) {
            file.write(bytesOf(value));
        }
    }

    @Test
    void writesGoToEachCopyInTurnAndTheNewestIsRead() throws Exception {
        writeInTurn(1, 2, 3);
        assertArrayEquals(bytesOf(3).array(), Files.readAllBytes(dir.resolve("state")));
        assertArrayEquals(bytesOf(2).array(), Files.readAllBytes(dir.resolve("state.b")));
        assertEquals(Optional.of(3L), readNewest(new AlternatingFile(dir, "state", ForceRecorder.NONE)));
    }

    @Test
    void aReplacingWriteLeavesItsCopyAlone() throws Exception {
        AlternatingFile file = new AlternatingFile(dir, "state", ForceRecorder.NONE);
        readNewest(file);
        file.write(bytesOf(1));
        file.write(bytesOf(2));
        file.replace(bytesOf(3));
        assertArrayEquals(bytesOf(3).array(), Files.readAllBytes(dir.resolve("state")));
        assertFalse(Files.exists(dir.resolve("state.b")), "the other copy is gone, so no tie can choose it");
        assertEquals(Optional.of(3L), readNewest(new AlternatingFile(dir, "state", ForceRecorder.NONE)));
    }

    @Test
    void aTornNewestCopyLeavesThePreviousState() throws Exception {
        writeInTurn(1, 2);
        Files.write(dir.resolve("state.b"), new byte[] {0x7F, 0, 0});
        assertEquals(Optional.of(1L), readNewest(new AlternatingFile(dir, "state", ForceRecorder.NONE)));
    }

    @Test
    void aWriteAfterAReadNeverOverwritesTheCopyThatWasRead() throws Exception {
        Files.write(dir.resolve("state"), bytesOf(5).array());
        Files.write(dir.resolve("state.b"), new byte[] {0x7F});
        AlternatingFile file = new AlternatingFile(dir, "state", ForceRecorder.NONE);
        assertEquals(Optional.of(5L), readNewest(file));
        file.write(bytesOf(6));
        assertArrayEquals(bytesOf(5).array(), Files.readAllBytes(dir.resolve("state")));
        assertEquals(Optional.of(6L), readNewest(new AlternatingFile(dir, "state", ForceRecorder.NONE)));
    }

    @Test
    void aSingleFileWrittenBeforeThereWereTwoCopiesIsRead() throws Exception {
        Files.write(dir.resolve("state"), bytesOf(9).array());
        assertEquals(Optional.of(9L), readNewest(new AlternatingFile(dir, "state", ForceRecorder.NONE)));
        assertTrue(Files.notExists(dir.resolve("state.b")));
    }

    @Test
    void noValidCopyReadsAsNothing() throws Exception {
        Files.write(dir.resolve("state"), new byte[] {0x7F});
        assertEquals(Optional.empty(), readNewest(new AlternatingFile(dir, "state", ForceRecorder.NONE)));
    }
}
