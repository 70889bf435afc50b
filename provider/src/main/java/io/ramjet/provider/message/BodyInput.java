package io.ramjet.provider.message;

import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A received bytes body read as a stream, in place: the body is a read-only view of the bytes
 * that carried the message, never copied and never changed. Marks are positions.
 */
final class BodyInput extends InputStream {

    private final ByteBuffer bytes;
    private int mark;

    /** @param body read from its position to its limit; its own position is left untouched */
    BodyInput(ByteBuffer body) {
        this.bytes = body.duplicate();
        this.mark = bytes.position();
    }

    @Override
    public int read() {
        return bytes.hasRemaining() ? bytes.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
        if (!bytes.hasRemaining()) {
            return -1;
        }
        int n = Math.min(length, bytes.remaining());
        bytes.get(into, offset, n);
        return n;
    }

    @Override
    public int available() {
        return bytes.remaining();
    }

    @Override
    public boolean markSupported() {
        return true;
    }

    @Override
    public void mark(int readLimit) {
        mark = bytes.position();
    }

    @Override
    public void reset() {
        bytes.position(mark);
    }
}
