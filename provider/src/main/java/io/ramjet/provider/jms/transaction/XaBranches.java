package io.ramjet.provider.jms.transaction;

import java.util.HashMap;
import java.util.Map;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;

/**
 * The XA branches of one resource manager, shared by the XAResources of its sessions: those of
 * one connection, or of every connection of one user opened with the same
 * {@code XaResourceManager}. Their moves through the XA state table on start and end, and the
 * ledger their outcomes are kept in for the brokers' check-backs. Thread-safe: a transaction
 * manager may complete a branch from any thread.
 */
public final class XaBranches {

    private final TransactionLedger ledger;
    private final int sendsInFlight;
    private final Map<String, XaBranch> branches = new HashMap<>();

    /** @param sendsInFlight the most unanswered sends of one branch */
    public XaBranches(TransactionLedger ledger, int sendsInFlight) {
        this.ledger = ledger;
        this.sendsInFlight = sendsInFlight;
    }

    /** Where the branches' transactions are kept for check-backs. */
    public TransactionLedger ledger() {
        return ledger;
    }

    /** start(xid, flags): a new branch (TMNOFLAGS) or another association with a known one. */
    synchronized XaBranch start(String xid, int flags, int timeoutSeconds) throws XAException {
        XaBranch branch = branches.get(xid);
        switch (flags) {
            case XAResource.TMNOFLAGS -> {
                if (branch != null) {
                    throw XaErrors.of(XAException.XAER_DUPID, "branch " + xid + " already exists");
                }
                branch = new XaBranch(xid, LocalTransaction.newTransactionId(), timeoutSeconds,
                        new TransactionWork(sendsInFlight));
                branches.put(xid, branch);
                ledger.opened(branch.transactionId);
                return branch;
            }
            case XAResource.TMJOIN, XAResource.TMRESUME -> {
                if (branch == null) {
                    throw XaErrors.of(XAException.XAER_NOTA, "no branch " + xid);
                }
                boolean allowed = flags == XAResource.TMJOIN
                        ? branch.state == XaBranch.State.ACTIVE || branch.state == XaBranch.State.IDLE
                        : branch.state == XaBranch.State.SUSPENDED;
                if (branch.state == XaBranch.State.ROLLBACK_ONLY) {
                    throw XaErrors.of(XAException.XA_RBROLLBACK, "branch " + xid + " is marked rollback-only");
                }
                if (!allowed) {
                    throw XaErrors.of(XAException.XAER_PROTO, "branch " + xid + " is " + branch.state);
                }
                branch.state = XaBranch.State.ACTIVE;
                branch.associations++;
                return branch;
            }
            default -> throw XaErrors.of(XAException.XAER_INVAL, "start flags " + flags);
        }
    }

    /** end(xid, flags) of one association. */
    synchronized void end(XaBranch branch, int flags) throws XAException {
        switch (flags) {
            case XAResource.TMSUCCESS, XAResource.TMFAIL, XAResource.TMSUSPEND -> { }
            default -> throw XaErrors.of(XAException.XAER_INVAL, "end flags " + flags);
        }
        branch.associations = Math.max(0, branch.associations - 1);
        if (flags == XAResource.TMFAIL || branch.timedOut()) {
            branch.state = XaBranch.State.ROLLBACK_ONLY;
        } else if (branch.state != XaBranch.State.ROLLBACK_ONLY && branch.associations == 0) {
            branch.state = flags == XAResource.TMSUSPEND ? XaBranch.State.SUSPENDED : XaBranch.State.IDLE;
        }
    }

    /** The branch to prepare, commit or roll back, or null when this connection does not know it. */
    synchronized XaBranch get(String xid) {
        return branches.get(xid);
    }

    synchronized void prepared(XaBranch branch) {
        branch.state = XaBranch.State.PREPARED;
    }

    /** The branch is over on every broker, or forgotten. */
    synchronized void remove(XaBranch branch) {
        branch.completed = true;
        branches.remove(branch.xid, branch);
    }

    synchronized boolean isCompleted(XaBranch branch) {
        return branch.completed;
    }
}
