package io.ramjet.storage;

/**
 * The disk has no room for another file. Nothing of the failed append was made visible; the
 * store keeps serving reads and accepts appends again once space is freed.
 */
public class StoreFullException extends StoreException {

    public StoreFullException(String message) {
        super(message);
    }

    public StoreFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
