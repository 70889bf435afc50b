package io.ramjet.cli;

import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnectionException;
import io.ramjet.protocol.remoting.RemotingTimeoutException;

/** A broker or NameServer refused an admin command, or could not be reached. */
public final class AdminException extends RuntimeException {

    public AdminException(String message) {
        super(message);
    }

    public AdminException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether the broker or NameServer could not be reached or did not answer in time, as opposed
     * to refusing (a refused login included).
     */
    public boolean unreachable() {
        boolean transport = false;
        for (Throwable c = getCause(); c != null; c = c.getCause()) {
            if (c instanceof RemotingCommandException) {
                return false;
            }
            transport |= c instanceof RemotingConnectionException || c instanceof RemotingTimeoutException;
        }
        return transport;
    }
}
