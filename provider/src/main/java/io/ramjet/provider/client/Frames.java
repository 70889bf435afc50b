package io.ramjet.provider.client;

import io.netty.buffer.ByteBuf;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

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

    /** Sends a request whose answer says only that it succeeded; the answer's body is released. */
    static CompletableFuture<Void> invoke(RemotingClient remoting, String address, short code, Object header,
                                          Duration timeout) {
        return remoting.invoke(address, Frame.request(code, header), timeout).thenAccept(Frames::release);
    }
}
