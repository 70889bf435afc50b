package io.ramjet.server.broker.error;

/**
 * Why the broker refuses what a client asked, in the broker's own terms. The processors turn
 * each into the status the client sees, in one table; the domain never names a wire status.
 */
public enum Refusal {
    /** The request is not valid: a missing id, a queue the subscription lacks, a decision contradicted. */
    BAD_REQUEST,
    /** No such thing to act on: a subscription or destination to delete, an acknowledged subscription. */
    NOT_FOUND,
    /** The destination does not exist and may not be created, or its name is not one a client may use. */
    UNKNOWN_DESTINATION,
    /** The subscription exists with other terms, or belongs to someone else. */
    SUBSCRIPTION_CONFLICT,
    /** The disk is past its use limit, or the store has no room for another segment. */
    DISK_FULL,
    /** The consumer is not attached (closed, or the broker restarted). */
    UNKNOWN_CONSUMER,
    /** Messages to settle are no longer delivered to that consumer. */
    NOT_HELD,
    /** The transaction was rolled back here, or must be: nothing of it is applied. */
    TX_ROLLED_BACK,
    /** An xid alone that the broker has no trace of. */
    TX_UNKNOWN,
    /** The transaction or xid belongs to another connection or transaction. */
    TX_CONFLICT,
    /** Another live connection holds the client id. */
    CLIENT_ID_IN_USE,
    /** Credentials not accepted, or a command before authenticating where that is required. */
    NOT_AUTHENTICATED,
    /** The connection's user holds no role allowed to do that operation to that destination. */
    NOT_AUTHORIZED,
    /** This broker is a slave of its group: clients send, consume and acknowledge at the master. */
    NOT_MASTER,
    /** A replica's handshake or fetch that this master cannot serve as asked. */
    REPLICA_REFUSED,
    /** The master's in-sync set is below its minimum: a decision it could not answer is not written. */
    TOO_FEW_REPLICAS
}
