package io.ramjet.bench.peer;

import io.ramjet.bench.workload.BuildDirectory;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty a peer's broker JVM runs on: the jars of the version the peer ships with (Artemis
 * 2.40 and RocketMQ 5.3 are built for Netty 4.1), copied by the build to
 * {@code target/peer-netty/<peer>} (system property {@code bench.peer.netty}), put in place of
 * the shared class path's Netty, which is Ramjet's 4.2.
 */
public final class PeerNetty {

    private static final Logger LOG = LoggerFactory.getLogger(PeerNetty.class);
    private static final String NETTY_JARS = File.separator + "io" + File.separator + "netty" + File.separator
            + "netty-";

    private final String peer;

    private PeerNetty(String peer) {
        this.peer = peer;
    }

    /** The Netty the build copied for {@code peer} (artemis, rocketmq). */
    public static PeerNetty of(String peer) {
        return new PeerNetty(peer);
    }

    /**
     * {@code classPath} with every Netty jar of the local repository replaced by this peer's; the
     * class path unchanged, with a warning, where the build did not copy them (a run from an IDE).
     */
    String apply(String classPath) {
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

    @Override
    public String toString() {
        return peer + "'s Netty";
    }
}
