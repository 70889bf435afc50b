package io.ramjet.storage;

/** The broker's choice of when an append counts as durable. */
public enum FlushPolicy {
    /**
     * An append asking to wait completes once a force covers it; waiting appends share forces
     * (group commit). Appends not asking to wait are flushed by the periodic flush.
     */
    SYNC_GROUP_COMMIT,
    /** No append waits: everything is flushed by the periodic flush. */
    ASYNC
}
