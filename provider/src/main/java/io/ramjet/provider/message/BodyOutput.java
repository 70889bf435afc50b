package io.ramjet.provider.message;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The bytes written to a message body, handed to a sender without a copy when they fill their
 * array exactly. Contract of {@link #bytes()}: the array it returns is never written
 * again by this stream, since its array is then exactly full and the next write moves to a new
 * one; so a send may keep it while the message is written on. Never {@link #reset()}: a cleared
 * body is a new stream.
 */
final class BodyOutput extends ByteArrayOutputStream {

    /** The bytes written so far, not to be changed by the caller (they may be shared). */
    synchronized byte[] bytes() {
        if (count != buf.length) {
            buf = Arrays.copyOf(buf, count);
        }
        return buf;
    }
}
