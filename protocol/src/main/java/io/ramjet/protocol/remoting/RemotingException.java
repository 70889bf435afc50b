package io.ramjet.protocol.remoting;

/** Base of every failure of the remoting layer. */
public class RemotingException extends Exception {

    public RemotingException(String message) {
        super(message);
    }

    public RemotingException(String message, Throwable cause) {
        super(message, cause);
    }
}
