package io.ramjet.bench.peer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The peer side of the conversation with {@link PeerProcess}: a peer main prints
 * {@code READY <port>} once it serves, then calls {@link #serveUntilStdinCloses()}. The parent
 * may write {@code heap} on a line, answered with {@code HEAP <bytes>} (the heap in use after a
 * full collection: what the peer's data really holds); end of stdin means "stop".
 */
public final class PeerControl {

    /** The line a peer prints when it serves. */
    public static final String READY = "READY ";
    /** The prefix of the answer to a heap question. */
    public static final String HEAP = "HEAP ";

    private PeerControl() {
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
                }
            }
        } catch (IOException parentGone) {
            // the parent is gone: stop as well
        }
    }

    private static long liveHeapBytes() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }
}
