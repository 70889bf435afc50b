package io.ramjet.cli;

/** A broker or NameServer refused an admin command, or could not be reached. */
public final class AdminException extends RuntimeException {

    public AdminException(String message) {
        super(message);
    }

    public AdminException(String message, Throwable cause) {
        super(message, cause);
    }
}
