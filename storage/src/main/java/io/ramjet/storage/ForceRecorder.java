package io.ramjet.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A seam for tests of power loss: told, at every completed force, which bytes of which file are
 * now on the disk, and of every durable rename, so a test can rebuild each file as a power cut
 * would leave it (what the last forces covered; the rest lost). The store calls
 * {@link #current}, which is {@link #NONE} unless a test installs another; production code never
 * does. Called on whichever thread forced, possibly several at once.
 */
interface ForceRecorder {

    ForceRecorder NONE = new ForceRecorder() {
    };

    /** The recorder the store's files report to; tests install theirs here and put NONE back after. */
    Holder HOLDER = new Holder();

    /** {@code bytes} (a view, copy what is kept) are now durable at {@code position} of {@code file}. */
    default void forced(Path file, long position, ByteBuffer bytes) {
    }

    /** {@code from}, whose contents were forced, is now durably named {@code to}. */
    default void renamed(Path from, Path to) {
    }

    static ForceRecorder current() {
        return HOLDER.recorder;
    }

    /** Where the installed recorder is kept. */
    final class Holder {
        volatile ForceRecorder recorder = NONE;
    }
}
