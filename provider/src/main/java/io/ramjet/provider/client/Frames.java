package io.ramjet.provider.client;

import io.netty.buffer.ByteBuf;
import io.ramjet.protocol.frame.Frame;

/** Response bodies belong to whoever receives them. */
final class Frames {

    private Frames() {
    }

    static void release(Frame frame) {
        ByteBuf body = frame.body();
        if (body != null && body.refCnt() > 0) {
            body.release();
        }
    }
}
