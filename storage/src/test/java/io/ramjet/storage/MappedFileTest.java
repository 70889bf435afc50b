package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedFileTest {

    @TempDir
    Path dir;

    @Test
    void aCreatedFileForcesItsDirectoryAndTheParentsOfThoseCreatedWithItsFirstForce() {
        Path directory = dir.resolve("a").resolve("b");
        MappedFile file = MappedFile.create(directory, 0, 4096, 0);
        assertEquals(List.of(directory, dir.resolve("a"), dir), file.unforcedDirectories());
        file.buffer().putInt(0, 1);
        file.force(0, Integer.BYTES);
        assertEquals(List.of(), file.unforcedDirectories());
        file.close();
    }

    @Test
    void aPreparedFileRenamedInPlaceForcesItsDirectoryBeforeItsFirstWriteIsForced() {
        MappedFile first = MappedFile.create(dir, 0, 4096, 0);
        MappedFile next = MappedFile.install(MappedFile.prepare(dir, 4096, 4096, 0, ".next"));
        assertEquals(List.of(dir), next.unforcedDirectories());
        next.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 0);
        next.forceWritten();
        assertEquals(List.of(), next.unforcedDirectories());
        first.close();
        next.close();
    }
}
