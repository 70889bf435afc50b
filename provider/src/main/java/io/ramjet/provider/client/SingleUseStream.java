package io.ramjet.provider.client;

import java.io.FilterInputStream;
import java.io.InputStream;

/**
 * A message body given as a stream, which can be sent only once: a send that failed after it
 * began reading it cannot be resent (the bytes read are gone), so the second attempt is refused
 * instead of sending a cut body.
 */
public final class SingleUseStream extends FilterInputStream {

    private boolean taken;

    public SingleUseStream(InputStream in) {
        super(in);
    }

    /** True for the first caller only: the one that may read the stream. */
    synchronized boolean take() {
        boolean first = !taken;
        taken = true;
        return first;
    }
}
