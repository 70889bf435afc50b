package io.ramjet.protocol.frame;

import io.netty.handler.codec.DecoderException;

/** A peer sent bytes that are not a valid frame; the connection must be closed. */
public final class FrameException extends DecoderException {

    public FrameException(String message) {
        super(message);
    }

    public FrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
