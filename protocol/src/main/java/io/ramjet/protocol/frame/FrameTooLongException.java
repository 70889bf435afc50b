package io.ramjet.protocol.frame;

import io.netty.handler.codec.EncoderException;

/**
 * A frame was refused before any of it was written, because it is longer than the receiver
 * accepts ({@link FrameDescriptor#DEFAULT_MAX_FRAME_LENGTH} unless configured otherwise). Nothing
 * went on the wire, so the connection is unharmed.
 */
public final class FrameTooLongException extends EncoderException {

    private final long frameLength;
    private final int maxFrameLength;

    public FrameTooLongException(String what, long frameLength, int maxFrameLength) {
        super(what + " frame of " + frameLength + " bytes exceeds the frame limit of " + maxFrameLength
                + " bytes: not sent");
        this.frameLength = frameLength;
        this.maxFrameLength = maxFrameLength;
    }

    /** The value the frame's length field would have had. */
    public long frameLength() {
        return frameLength;
    }

    public int maxFrameLength() {
        return maxFrameLength;
    }
}
