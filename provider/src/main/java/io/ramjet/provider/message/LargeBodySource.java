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
}
