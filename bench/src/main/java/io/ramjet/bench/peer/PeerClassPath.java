package io.ramjet.bench.peer;

import io.ramjet.bench.workload.BuildDirectory;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class path of a peer's broker JVM. Artemis's ({@link #distribution}): the benchmark's own
 * classes (the peer's main class) and the runtime closure of {@code artemis-server} on the
 * versions Artemis ships (its Netty 4.1), which the build of {@code bench-artemis-broker} writes
 * to its {@code target/classpath.txt} (system property {@value #ARTEMIS_CLASS_PATH} names another
 * file), as its distribution's {@code lib/} holds it. Others ({@link #of}): the shared class
 * path with its Netty (Ramjet's 4.2) replaced by the version the peer ships with (RocketMQ 5.3 is
 * built for Netty 4.1), copied by the build to {@code target/peer-netty/<peer>} (system property
 * {@code bench.peer.netty}).
 */
public final class PeerClassPath {

    /** System property: the file holding the Artemis broker's class path. */
    static final String ARTEMIS_CLASS_PATH = "bench.artemis.classpath";

    private static final Logger LOG = LoggerFactory.getLogger(PeerClassPath.class);
    private static final String NETTY_JARS = File.separator + "io" + File.separator + "netty" + File.separator
            + "netty-";

    private final String peer;
    private final boolean distribution;

    private PeerClassPath(String peer, boolean distribution) {
        this.peer = peer;
        this.distribution = distribution;
    }

    /** The shared class path on the Netty the build copied for {@code peer} (rocketmq). */
    public static PeerClassPath of(String peer) {
        return new PeerClassPath(peer, false);
    }

    /** Artemis's broker on its distribution's class path; on Artemis's Netty where the build did not write it. */
    public static PeerClassPath distribution() {
        return new PeerClassPath("artemis", true);
    }

    /**
     * The class path for a JVM of {@code mainClass}, given the shared one: the distribution's where
     * the build wrote it, else {@code classPath} with every Netty jar of the local repository
     * replaced by this peer's; the class path unchanged, with a warning, where the build did not
     * copy them either (a run from an IDE).
     */
    String apply(Class<?> mainClass, String classPath) {
        if (distribution) {
            Path file = distributionFile();
            if (Files.isRegularFile(file)) {
                try {
                    return ownClasses(mainClass) + File.pathSeparator + Files.readString(file, StandardCharsets.UTF_8)
                            .strip();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            LOG.warn("{} runs on the shared class path with its Netty: no {} (build bench-artemis-broker)", peer, file);
        }
        Path dir = BuildDirectory.of("bench.peer.netty", "peer-netty").resolve(peer);
        if (!Files.isDirectory(dir)) {
            LOG.warn("{} runs on the shared Netty: no {} (run the build's process-resources phase)", peer, dir);
            return classPath;
        }
        List<String> entries = new ArrayList<>();
        for (String e : classPath.split(File.pathSeparator)) {
            if (!e.contains(NETTY_JARS)) {
                entries.add(e);
            }
        }
        try (Stream<Path> jars = Files.list(dir)) {
            jars.filter(j -> j.toString().endsWith(".jar")).sorted().forEach(j -> entries.add(j.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Where the build of bench-artemis-broker wrote the class path, from the repository root or from bench/. */
    private static Path distributionFile() {
        String configured = System.getProperty(ARTEMIS_CLASS_PATH);
        if (configured != null) {
            return Path.of(configured);
        }
        Path fromRoot = Path.of("bench-artemis-broker", "target", "classpath.txt");
        return Files.exists(fromRoot) ? fromRoot : Path.of("..").resolve(fromRoot);
    }

    /** The directory or jar the benchmark's classes, {@code mainClass} among them, were loaded from. */
    private static String ownClasses(Class<?> mainClass) {
        try {
            return Path.of(mainClass.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What {@link #apply} gives: the distribution's class path (and its file), or the shared one on the peer's Netty. */
    @Override
    public String toString() {
        return distribution && Files.isRegularFile(distributionFile())
                ? peer + "'s distribution class path (" + distributionFile() + ")"
                : "the benchmark's on " + peer + "'s Netty";
    }
}
