package io.ramjet.model;

/** What one side knows of a transaction: the answer to a check-back or a coordinator query. */
public enum TxState {
    /** Still in progress: ask again later. */
    OPEN,
    /** Committed: the asker commits too. */
    COMMITTED,
    /** Rolled back, or never to commit: the asker rolls back. */
    ROLLED_BACK,
    /** No knowledge of it: a client answering this means it has forgotten it, so roll back. */
    UNKNOWN
}
