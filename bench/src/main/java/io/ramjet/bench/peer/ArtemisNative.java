package io.ramjet.bench.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Artemis's native journal binding as its distribution installs it: {@code artemis-native}'s
 * {@code LibaioContext} loads {@code libartemis-native-64.so} (or {@code -32}) only from
 * {@code java.library.path}, not from its jar, and the distribution's launch script points
 * {@code java.library.path} at {@code bin/lib/linux-<arch>}, where the library extracted from
 * that jar lies. A broker JVM started with {@link #jvmArgs} finds it the same way; without it,
 * Artemis runs its NIO journal even where libaio is installed.
 */
final class ArtemisNative {

    private static final Logger LOG = LoggerFactory.getLogger(ArtemisNative.class);

    private ArtemisNative() {
    }

    /**
     * Extracts the binding for this machine's architecture from the class path into
     * {@code peerDir/bin/lib/linux-<arch>} and returns the JVM argument that names that directory
     * as {@code java.library.path}; no argument, with a warning, where the jar holds no binding
     * for this architecture (Artemis then runs NIO, and its journal-type setting says why).
     */
    static List<String> jvmArgs(Path peerDir) throws IOException {
        String dir = "lib/linux-" + machine();
        for (String file : List.of(library(64), library(32))) {
            try (InputStream in = ArtemisNative.class.getClassLoader().getResourceAsStream(dir + "/" + file)) {
                if (in != null) {
                    Path target = Files.createDirectories(peerDir.resolve("bin").resolve(dir));
                    Files.copy(in, target.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                    return List.of("-Djava.library.path=" + target);
                }
            }
        }
        LOG.warn("no Artemis native binding for {} on the class path: the artemis peer runs NIO", dir);
        return List.of();
    }

    /** The file name of the binding for a {@code bits}-bit JVM, as {@code LibaioContext} loads it. */
    static String library(int bits) {
        return System.mapLibraryName("artemis-native-" + bits);
    }

    /** What {@code uname -m} prints for the JVM's architecture, which names the binding's directory. */
    static String machine() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "x86", "i386", "i486", "i586", "i686" -> "i686";
            default -> arch;
        };
    }
}
