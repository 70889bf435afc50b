package io.ramjet.ra;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XA resource of a pooled connection's session, as given to the transaction manager. It
 * remembers whether the session is associated with a global transaction (between {@code start}
 * and {@code end}), which is what the Jakarta Messaging rules for sessions in a JTA transaction
 * depend on.
 */
final class EnlistmentTracker extends DelegatingXAResource {

    private volatile boolean associated;

    EnlistmentTracker(XAResource resource) {
        super(resource);
    }

    boolean isAssociated() {
        return associated;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        super.start(xid, flags);
        associated = true;
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        associated = false;
        super.end(xid, flags);
    }
}
