package io.ramjet.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtemisPeerTest {

    /** A journal buffer timeout given to the peer, so that it starts without its sync test. */
    private static final long GIVEN_TIMEOUT_NANOS = 500_000;

    @Test
    void theBindingForThisMachineIsExtractedAndNamedAsLibraryPath(@TempDir Path dir) throws Exception {
        assumeTrue("x86_64".equals(ArtemisNative.machine()), "artemis-native ships Linux x86_64 and i686 only");

        List<String> args = ArtemisNative.jvmArgs(dir);

        Path lib = dir.resolve("bin/lib/linux-x86_64");
        assertEquals(List.of("-Djava.library.path=" + lib), args);
        assertTrue(Files.size(lib.resolve("libartemis-native-64.so")) > 0);
    }

    @Test
    void theArtemisPeerRunsOnItsDistributionsClassPathAndAsyncioWhereLibaioIsInstalled() throws Exception {
        boolean libaio = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libaio.so.1"))
                || Files.exists(Path.of("/lib/x86_64-linux-gnu/libaio.so.1"))
                || Files.exists(Path.of("/usr/lib64/libaio.so.1"));

        try (JmsPeer artemis = JmsPeer.artemis("256m", 1 << 20, GIVEN_TIMEOUT_NANOS)) {
            Map<String, String> settings = artemis.processes().get(0).settings();
            assertTrue(settings.get("class-path").startsWith("artemis's distribution class path"), settings.toString());
            assertEquals("4.1.119.Final", settings.get("netty"));
            assumeTrue("x86_64".equals(ArtemisNative.machine()), "artemis-native ships Linux x86_64 and i686 only");
            assumeTrue(libaio, "libaio is not installed (bench/setup.sh)");
            assertEquals("ASYNCIO", settings.get("journal-type"));
        }
    }
}
