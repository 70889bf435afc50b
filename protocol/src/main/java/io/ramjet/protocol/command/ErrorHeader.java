package io.ramjet.protocol.command;

/**
 * Header of a response whose frame has the error flag: the request failed on the remote side.
 *
 * @param status  one of {@link ErrorStatus}
 * @param message why, for humans; never null
 */
public record ErrorHeader(int status, String message) {

    public ErrorHeader {
        message = message == null ? "" : message;
    }
}
