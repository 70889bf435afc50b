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
 * The class path of a peer's broker JVM. From its distribution ({@link #distribution}): the
 * benchmark's own classes (the peer's main class) and the runtime closure its distribution's
 * {@code lib/} holds, on the versions the product ships (Artemis's and RocketMQ's Netty 4.1, not
 * Ramjet's 4.2), which the build of the pom-only module {@code bench-<peer>-broker} writes to its
 * {@code target/classpath.txt} (system property {@code bench.<peer>.classpath} names another file).
 * Where the build did not write it (a run from an IDE), the shared class path with its Netty
 * replaced by the version the peer ships with, copied by the build to
 * {@code target/peer-netty/<peer>} (system property {@code bench.peer.netty}), or for Ramjet the
 * shared class path as it is.
 */
public final class PeerClassPath {

    /** The logging configuration Ramjet's distribution ships (etc/logback.xml), from the repository root. */
    private static final Path RAMJET_LOGBACK = Path.of("dist", "src", "dist", "etc", "logback.xml");

    private static final Logger LOG = LoggerFactory.getLogger(PeerClassPath.class);
    private static final String NETTY_JARS = File.separator + "io" + File.separator + "netty" + File.separator
            + "netty-";

    private final String peer;
    private final boolean distribution;
    /** The module that writes the class path file: bench-<peer>-broker or bench-<peer>-client. */
    private final String module;

    private PeerClassPath(String peer, boolean distribution, String module) {
        this.peer = peer;
        this.distribution = distribution;
        this.module = module;
    }

    /** The shared class path on the Netty the build copied for {@code peer}. */
    public static PeerClassPath of(String peer) {
        return new PeerClassPath(peer, false, "bench-" + peer + "-broker");
    }

    /** Artemis's broker on its distribution's class path; on Artemis's Netty where the build did not write it. */
    public static PeerClassPath distribution() {
        return distribution("artemis");
    }

    /**
     * {@code peer}'s broker (artemis, rocketmq or ramjet) on its distribution's class path; where
     * the build did not write it, the shared one on the peer's Netty.
     */
    public static PeerClassPath distribution(String peer) {
        return new PeerClassPath(peer, true, "bench-" + peer + "-broker");
    }

    /**
     * {@code peer}'s client JVM ({@link ClientMain}) on the class path of that product's client
     * library with its own Netty, which the build of {@code bench-<peer>-client} writes (system
     * property {@code bench.<peer>.client.classpath} names another file); where the build did not
     * write it, the benchmark's class path, with a warning.
     */
    public static PeerClassPath client(String peer) {
        return new PeerClassPath(peer, true, "bench-" + peer + "-client");
    }

    /**
     * The JVM arguments the distribution's launch script adds for its logging: Ramjet's
     * {@code bin/ramjet} names its {@code etc/logback.xml} and a log directory (here beside
     * {@code dataDir}); none for the others (Artemis's peer logs through SLF4J's simple logger,
     * RocketMQ's broker through its own shaded logback under {@code user.home}).
     */
    List<String> jvmArgs(Path dataDir) {
        if (!distribution || !module.equals("bench-ramjet-broker") || !Files.isRegularFile(distributionFile())) {
            return List.of();
        }
        Path config = Files.exists(RAMJET_LOGBACK) ? RAMJET_LOGBACK : Path.of("..").resolve(RAMJET_LOGBACK);
        if (!Files.isRegularFile(config)) {
            LOG.warn("ramjet's broker logs at logback's defaults: no {}", config);
            return List.of();
        }
        Path logs = dataDir.resolveSibling(dataDir.getFileName() + "-log");
        return List.of("-Dlogback.configurationFile=" + config.toAbsolutePath(), "-Dramjet.log.dir=" + logs);
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
            LOG.warn("{} runs on the shared class path: no {} (build {})", peer, file, module);
        }
        Path dir = BuildDirectory.of("bench.peer.netty", "peer-netty").resolve(peer);
        if (peer.equals("ramjet") || module.endsWith("-client") || !Files.isDirectory(dir)) {
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

    /** Where the build of the module wrote the class path, from the repository root or from bench/. */
    private Path distributionFile() {
        String configured = System.getProperty("bench." + peer + (module.endsWith("-client") ? ".client" : "")
                + ".classpath");
        if (configured != null) {
            return Path.of(configured);
        }
        Path fromRoot = Path.of(module, "target", "classpath.txt");
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
                ? peer + (module.endsWith("-client") ? "'s client" : "'s distribution") + " class path ("
                        + distributionFile() + ")"
                : peer.equals("ramjet") ? "the benchmark's" : "the benchmark's on " + peer + "'s Netty";
    }
}
