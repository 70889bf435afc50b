package io.ramjet.provider.jms.transaction;

/**
 * One XA transaction branch of a connection: its Xid ({@code XidCodec} form), the transaction
 * id its sends carry, its work, and where it is in the XA state table. Guarded by the
 * {@link XaBranches} that holds it.
 */
final class XaBranch {

    enum State {
        /** Associated with one or more sessions (start). */
        ACTIVE,
        /** end(TMSUSPEND): waiting for start(TMRESUME). */
        SUSPENDED,
        /** end(TMSUCCESS): waiting for prepare, one-phase commit or rollback. */
        IDLE,
        /** end(TMFAIL), or past its timeout: it can only roll back. */
        ROLLBACK_ONLY,
        /** prepare succeeded on every broker: waiting for commit or rollback. */
        PREPARED
    }

    final String xid;
    final long transactionId;
    final TransactionWork work;
    final long deadlineNanos;
    State state = State.ACTIVE;
    int associations = 1;
    /** Committed, rolled back or forgotten: sessions still associated with it only dissociate. */
    volatile boolean completed;

    XaBranch(String xid, long transactionId, int timeoutSeconds, TransactionWork work) {
        this.xid = xid;
        this.work = work;
        this.transactionId = transactionId;
        this.deadlineNanos = timeoutSeconds > 0 ? System.nanoTime() + timeoutSeconds * 1_000_000_000L : 0;
    }

    boolean timedOut() {
        return deadlineNanos != 0 && System.nanoTime() - deadlineNanos > 0;
    }
}
