package io.ramjet.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Artemis peer's native binding. That the peer runs on its distribution's class path, on
 * Artemis's Netty and on ASYNCIO where libaio is installed, BenchSmokeTest checks in the settings
 * its run records (one Artemis start for both).
 */
class ArtemisPeerTest {

    @Test
    void theBindingForThisMachineIsExtractedAndNamedAsLibraryPath(@TempDir Path dir) throws Exception {
        assumeTrue("x86_64".equals(ArtemisNative.machine()), "artemis-native ships Linux x86_64 and i686 only");

        List<String> args = ArtemisNative.jvmArgs(dir);

        Path lib = dir.resolve("bin/lib/linux-x86_64");
        assertEquals(List.of("-Djava.library.path=" + lib), args);
        assertTrue(Files.size(lib.resolve("libartemis-native-64.so")) > 0);
    }
}
