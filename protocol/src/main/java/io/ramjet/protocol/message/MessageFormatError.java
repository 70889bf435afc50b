package io.ramjet.protocol.message;

/** Bytes that do not follow a message layout of this package: truncated, unknown tag, bad length. */
public final class MessageFormatError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MessageFormatError(String message) {
        super(message);
    }
}
