package io.ramjet.protocol.remoting;

/**
 * The connection could not be opened, or closed before the response arrived; a request that
 * fails this way may or may not have been executed.
 */
public final class RemotingConnectionException extends RemotingException {

    public RemotingConnectionException(String message) {
        super(message);
    }

    public RemotingConnectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
