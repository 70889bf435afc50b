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

    /** Broker: Jakarta Messaging forbids this subscribe or unsubscribe now (IllegalStateException / JMSException). */
    public static final int SUBSCRIPTION_CONFLICT = 100;
    /** Broker: no such destination and auto-creation is off (InvalidDestinationException). */
    public static final int UNKNOWN_DESTINATION = 101;
    /** Broker: the disk is full or past its use limit (ResourceAllocationException). */
    public static final int STORE_FULL = 102;
    /** Broker: the consumer is not attached to that subscription (closed, or the broker restarted). */
    public static final int UNKNOWN_CONSUMER = 103;
    /**
     * Broker: the transaction was already rolled back here (check-back, a lost client, presumed
     * abort at the coordinator) and cannot commit (TransactionRolledBackException).
     */
    public static final int TRANSACTION_ROLLED_BACK = 104;
    /** Broker: no prepared transaction or XA branch of that id (XAException XAER_NOTA). */
    public static final int UNKNOWN_TRANSACTION = 105;
    /** Broker: a transaction of that id is already open or prepared from another connection. */
    public static final int TRANSACTION_CONFLICT = 106;
    /** Broker: another connection already holds that client id (InvalidClientIDException). */
    public static final int CLIENT_ID_IN_USE = 107;

    /**
     * Broker: an ACK or RELEASE_BATCH named messages that are not delivered to that consumer over that
     * connection (the delivery was lost with a broker restart or a lost connection, or never
     * happened); they were left alone and come back with JMSRedelivered set.
     */
    public static final int DELIVERY_NOT_HELD = 108;
    /**
     * Broker: the user name and password were not accepted (the same answer for an unknown user
     * and a wrong password), or the connection sent a command before authenticating to a broker
     * that admits no anonymous connections (JMSSecurityException).
     */
    public static final int AUTHENTICATION_FAILED = 109;

    /**
     * Broker: the connection's user may not do that operation to that destination (its roles
     * are not allowed by the broker's permissions); nothing was done and the connection stays
     * usable (JMSSecurityException).
     */
    public static final int NOT_AUTHORIZED = 152;

    /**
     * NameServer: a REGISTER_BROKER or UNREGISTER_BROKER without a valid proof of the NameServer
     * secret (missing, wrong secret, outside the time window, or replayed).
     */
    public static final int BROKER_NOT_AUTHENTICATED = 150;
    /**
     * NameServer: that broker name (cluster, name and id) is held by another broker whose
     * connection is alive; only its owner may re-register or unregister it.
     */
    public static final int BROKER_NAME_TAKEN = 151;

    /**
     * Broker: this broker is a slave of its group and serves no sends, consumers, acknowledgements
     * or transactions (only browsing); nothing was done. The client should use the group's master.
     */
    public static final int NOT_MASTER = 160;
    /**
     * Broker: a replica's handshake or fetch cannot be served as asked (another group, a segment
     * size that differs, an offset that is not a record boundary of the master's log); the slave
     * must handshake again.
     */
    public static final int REPLICA_REFUSED = 161;
    /**
     * Broker: the master's in-sync set (the master counted) is below its {@code minInSyncReplicas},
     * so it could not answer the request (a transaction's commit), and refused it before writing
     * anything; asked again once the set is whole, it may pass.
     */
    public static final int TOO_FEW_REPLICAS = 162;

    /**
     * NameServer: an ANNOUNCE_DESTINATIONS from a connection that holds no registration of that
     * broker at that epoch (the NameServer restarted, expired the broker, or another holds it);
     * nothing changed. The broker registers whole instead.
     */
    public static final int BROKER_NOT_REGISTERED = 188;

    private ErrorStatus() {
    }

    /**
     * What a status means for the requester: true when the request certainly had no effect (the
     * refusal came before anything was written), false when it may have (an internal error can
     * come after the record is durable). A client may treat a request refused with a status of
     * the first kind as never sent; a commit refused that way is rolled back. A status not
     * listed here is taken as "may have had an effect". DELIVERY_NOT_HELD speaks of the messages
     * not held: the others an ACK named were acknowledged.
     */
    public static boolean certainlyNotApplied(int status) {
        return switch (status) {
            case BAD_REQUEST, BUSY, NOT_FOUND, SUBSCRIPTION_CONFLICT, UNKNOWN_DESTINATION, STORE_FULL,
                 UNKNOWN_CONSUMER, TRANSACTION_ROLLED_BACK, UNKNOWN_TRANSACTION, TRANSACTION_CONFLICT,
                 CLIENT_ID_IN_USE, DELIVERY_NOT_HELD, AUTHENTICATION_FAILED, BROKER_NOT_AUTHENTICATED,
                 BROKER_NAME_TAKEN, NOT_AUTHORIZED, NOT_MASTER, REPLICA_REFUSED, TOO_FEW_REPLICAS,
                 BROKER_NOT_REGISTERED -> true;
            default -> false;
        };
    }
}
