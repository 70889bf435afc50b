package io.ramjet.protocol.command;

/** Status values of an {@link ErrorHeader}. Broker-specific statuses start at 100. */
public final class ErrorStatus {

    /** The processor failed unexpectedly. */
    public static final int INTERNAL_ERROR = 1;
    /** The request was understood but not valid (wrong header type, bad argument). */
    public static final int BAD_REQUEST = 2;
    /** The processor's executor refused the request: the server is overloaded. */
    public static final int BUSY = 3;
    /** The thing asked for does not exist. */
    public static final int NOT_FOUND = 4;

    private ErrorStatus() {
    }
}
