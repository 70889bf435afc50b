package io.ramjet.ra;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XA resource of a pooled connection's session, as given to the transaction manager. It
 * remembers whether the session is associated with a global transaction (between {@code start}
 * and {@code end}), which is what the Jakarta Messaging rules for sessions in a JTA transaction
 * depend on; everything else is the wrapped resource's.
 */
final class EnlistmentTracker implements XAResource {

    private final XAResource resource;
    private volatile boolean associated;

    EnlistmentTracker(XAResource resource) {
        this.resource = resource;
    }

    boolean isAssociated() {
        return associated;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        resource.start(xid, flags);
        associated = true;
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        associated = false;
        resource.end(xid, flags);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        return resource.prepare(xid);
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        resource.commit(xid, onePhase);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        resource.rollback(xid);
    }

    @Override
    public void forget(Xid xid) throws XAException {
        resource.forget(xid);
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return resource.recover(flag);
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return resource.isSameRM(other instanceof EnlistmentTracker t ? t.resource : other);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return resource.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return resource.setTransactionTimeout(seconds);
    }
}
