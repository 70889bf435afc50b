package io.ramjet.bench.peer;

import io.netty.channel.epoll.Epoll;
import io.netty.util.Version;
import io.ramjet.bench.workload.HeapPeak;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * The peer side of the conversation with {@link PeerProcess}: a peer main prints
 * {@code READY <port>} once it serves, then calls {@link #serveUntilStdinCloses()}. The parent
 * may write {@code heap} on a line, answered with {@code HEAP <bytes>} (the heap in use after a
 * full collection: what the peer's data really holds), or {@code peak}, answered with
 * {@code PEAK <bytes>} (the most heap in use at once since the last {@code peak}, summed over the
 * heap's memory pools, whose peaks it then resets); end of stdin means "stop". A peer states the
 * settings the results print with {@link #setting} ({@code SETTING <name> <value>}).
 */
public final class PeerControl {

    /** The line a peer prints when it serves. */
    public static final String READY = "READY ";
    /** The prefix of the answer to a heap question. */
    public static final String HEAP = "HEAP ";
    /** The prefix of a line the parent logs: how the peer configured itself. */
    public static final String NOTE = "NOTE ";
    /** The prefix of the answer to a peak heap question. */
    public static final String PEAK = "PEAK ";
    /** The prefix of a setting the parent logs and keeps for the results: a name, a space, a value. */
    public static final String SETTING = "SETTING ";

    private PeerControl() {
    }

    /** Tells the parent, which logs it, a choice the peer made at start (say, a measured setting). */
    public static void note(String text) {
        System.out.println(NOTE + text);
        System.out.flush();
    }

    /** Tells the parent a setting the results print: {@code name} without spaces, any {@code value}. */
    public static void setting(String name, Object value) {
        System.out.println(SETTING + name + " " + value);
        System.out.flush();
    }

    /** Tells the parent which Netty this JVM runs on and whether its epoll transport loads. */
    public static void noteNetty() {
        Version common = Version.identify().get("netty-common");
        setting("netty", common != null ? common.artifactVersion() : "unknown");
        setting("epoll", Epoll.isAvailable() ? "available" : "unavailable: " + Epoll.unavailabilityCause());
        setting("java", Runtime.version() + ", " + String.join(" ",
                ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    /** A peer main's start and service. */
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs a peer main's {@code body}; where it throws, prints why and exits 1, so that no thread
     * its start left behind (a controller client's, say) keeps a failed peer up with its parent
     * waiting for {@code READY}.
     */
    public static void runOrExit(Body body) {
        try {
            body.run();
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    /** Announces that the peer serves on {@code port}. */
    public static void ready(int port) {
        System.out.println(READY + port);
        System.out.flush();
    }

    /** Answers heap questions until the parent closes stdin (or goes away), then returns. */
    public static void serveUntilStdinCloses() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.trim().equals("heap")) {
                    System.out.println(HEAP + liveHeapBytes());
                    System.out.flush();
                } else if (line.trim().equals("peak")) {
                    System.out.println(PEAK + peakHeapBytes());
                    System.out.flush();
                }
            }
        } catch (IOException parentGone) {
            // the parent is gone: stop as well
        }
    }

    /** This JVM's heap pools' peaks since they were last reset, summed; then resets them. */
    public static long peakHeapBytes() {
        return HeapPeak.takeBytes();
    }

    private static long liveHeapBytes() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }
}
