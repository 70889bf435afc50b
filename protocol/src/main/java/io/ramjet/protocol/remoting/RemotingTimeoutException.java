package io.ramjet.protocol.remoting;

/** No response arrived within the request's timeout; the request may or may not have been executed. */
public final class RemotingTimeoutException extends RemotingException {

    public RemotingTimeoutException(String message) {
        super(message);
    }
}
