package io.ramjet.protocol.remoting;

import io.ramjet.protocol.command.ErrorStatus;

/**
 * The remote side executed the request and failed it with a status from {@link ErrorStatus}.
 * A processor throws it to choose the status of its error response; a caller receives it when
 * the response carries the error flag.
 */
public final class RemotingCommandException extends RemotingException {

    private final int status;

    public RemotingCommandException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
