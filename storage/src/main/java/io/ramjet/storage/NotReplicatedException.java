package io.ramjet.storage;

/**
 * The {@link ReplicationGate} did not hold the bytes within its timeout (under synchronous
 * replication: the in-sync set stayed below its minimum, or its slaves did not flush in time).
 * Whatever was appended stays in the log: a record whose append failed this way is stored on
 * this broker and may yet be replicated and dispatched.
 */
public class NotReplicatedException extends StoreException {

    public NotReplicatedException(String message) {
        super(message);
    }
}
