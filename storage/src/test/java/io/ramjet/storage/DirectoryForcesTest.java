package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryForcesTest {

    @TempDir
    Path dir;

    @Test
    void aDirectoryIsForcedOnceForTheFilesRenamedIntoItBeforeThatForceBegan() {
        DirectoryForces forces = new DirectoryForces();
        long renamed = System.nanoTime() - 1_000;
        forces.forceSince(dir, renamed);
        forces.forceSince(dir, renamed);
        forces.forceSince(dir.getParent(), renamed);
        assertEquals(2, forces.forces());
    }

    @Test
    void aFileRenamedAfterTheForceBeganGetsItsOwn() {
        DirectoryForces forces = new DirectoryForces();
        forces.forceSince(dir, System.nanoTime());
        forces.forceSince(dir, System.nanoTime());
        assertEquals(2, forces.forces());
    }

    @Test
    void manyNewFilesInOneDirectoryForceItOnceWithTheirFirstBytes() {
        List<MappedFile> files = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            files.add(MappedFile.install(MappedFile.prepare(dir, i * 4096L, 4096, 0, ".next")));
        }
        DirectoryForces forces = new DirectoryForces();
        for (MappedFile file : files) {
            file.buffer().putInt(0, 1);
            file.force(0, Integer.BYTES, forces);
            assertEquals(List.of(), file.unforcedDirectories());
            file.close();
        }
        assertEquals(1, forces.forces());
    }
}
