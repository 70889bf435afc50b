package io.ramjet.provider.client;

import java.util.ArrayDeque;

/**
 * The arrays a connection reads chunks of large messages into ({@link LargeBodyStream}), kept
 * from one body read to the next: a body read or closed gives its arrays back, so reading many
 * bodies makes no more arrays than reading one. Without them each body would make
 * {@code READ_AHEAD + 1} arrays of a chunk's length (a mebibyte: objects a collector holds apart
 * from the young ones until it collects) and drop them. Keeps as many as one reader uses at a time;
 * an array not given back (a body left half read) is collected as any object. Thread-safe.
 */
public final class ChunkArrays {

    private static final int KEPT = LargeBodyStream.READ_AHEAD + 1;

    private final ArrayDeque<byte[]> kept = new ArrayDeque<>(KEPT);

    /** A kept array, of any length; null when none is kept. */
    synchronized byte[] take() {
        return kept.poll();
    }

    /** Keeps {@code array} for a later reader unless enough are kept; the caller must not use it any more. */
    synchronized void give(byte[] array) {
        if (kept.size() < KEPT) {
            kept.push(array);
        }
    }
}
