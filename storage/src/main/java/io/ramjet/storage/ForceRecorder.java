package io.ramjet.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A seam for tests of power loss: told, at every completed force, which bytes of which file are
 * now on the disk, and of every durable rename, so a test can rebuild each file as a power cut
 * would leave it (what the last forces covered; the rest lost). Passed in as part of a
 * {@link StoreConfig}; {@link #NONE} everywhere but in such tests. Called on whichever thread
 * forced, possibly several at once, after the force and before anything that rests on it (an
 * answer, a rename) is done.
 */
public interface ForceRecorder {

    ForceRecorder NONE = new ForceRecorder() {
    };

    /** {@code bytes} (a view, copy what is kept) are now durable at {@code position} of {@code file}. */
    default void forced(Path file, long position, ByteBuffer bytes) {
    }

    /** {@code file}, truncated and written whole, now durably holds exactly {@code bytes} (a view). */
    default void replaced(Path file, ByteBuffer bytes) {
    }

    /** {@code from}, whose contents were forced, is now durably named {@code to}. */
    default void renamed(Path from, Path to) {
    }

    /** The entries of {@code directory} (files created or deleted in it so far) are now durable. */
    default void directoryForced(Path directory) {
    }
}
