package io.ramjet.provider.message;

import java.io.IOException;
import java.io.InputStream;

/**
 * Where a received large message's body is read from: each {@link #open} streams it from its
 * start (from the broker, chunk by chunk), so a body is never held whole in memory.
 */
@FunctionalInterface
public interface LargeBodySource {

    InputStream open() throws IOException;

    /**
     * The whole body, {@code length} bytes as its sender stated, read into one array of that
     * length: the one copy of it in memory (no buffer grown and copied on the way).
     *
     * @throws IOException if it cannot be read, does not fit an array, or is not {@code length} bytes long
     */
    default byte[] readWhole(long length) throws IOException {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IOException("a body of " + length + " bytes does not fit in an array");
        }
        byte[] whole = new byte[(int) length];
        try (InputStream in = open()) {
            if (in.readNBytes(whole, 0, whole.length) < whole.length || in.read() >= 0) {
                throw new IOException("the body read is not the " + length + " bytes its sender stated");
            }
        }
        return whole;
    }
}
