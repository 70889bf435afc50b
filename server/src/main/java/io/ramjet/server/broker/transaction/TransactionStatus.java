package io.ramjet.server.broker.transaction;

/** Where a transaction the broker still holds stands. */
public enum TransactionStatus {
    /** Half records (or nothing yet) and no vote: the owner may still send, commit or roll back. */
    OPEN,
    /** A TX_PREPARE is being written: neither checked back nor rolled back meanwhile. */
    PREPARING,
    /** The vote is durable: the broker never decides alone (a local one asks its owner or coordinator). */
    PREPARED,
    /** A COMMIT or ROLLBACK record is being written. */
    ENDING
}
