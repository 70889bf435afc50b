package io.ramjet.ra;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * An XA resource that hands every call to another; subclasses change the calls they care about.
 * Two of them are the same resource manager when what they wrap is.
 */
abstract class DelegatingXAResource implements XAResource {

    private final XAResource resource;

    DelegatingXAResource(XAResource resource) {
        this.resource = resource;
    }

    /** The provider's resource at the bottom of any chain of delegating ones. */
    private static XAResource innermost(XAResource r) {
        return r instanceof DelegatingXAResource d ? innermost(d.resource) : r;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        resource.start(xid, flags);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
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
        return innermost(resource).isSameRM(innermost(other));
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
