package io.ramjet.protocol.frame;

/**
 * A frame's header is missing or of another type than its command needs: the sender's mistake,
 * answered BAD_REQUEST by the remoting layer. Every other failure of a processor is its own
 * business to map.
 */
public final class HeaderTypeException extends IllegalArgumentException {

    public HeaderTypeException(String message) {
        super(message);
    }
}
