package io.ramjet.ra;

import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/** An XA resource as a transaction manager uses it, counting what it was asked. */
final class RecordingXAResource extends DelegatingXAResource {

    final AtomicInteger prepares = new AtomicInteger();
    final AtomicInteger onePhaseCommits = new AtomicInteger();
    /** The branch of the last start. */
    volatile Xid xid;

    RecordingXAResource(XAResource resource) {
        super(resource);
    }

    @Override
    public void start(Xid branch, int flags) throws XAException {
        xid = branch;
        super.start(branch, flags);
    }

    @Override
    public int prepare(Xid branch) throws XAException {
        prepares.incrementAndGet();
        return super.prepare(branch);
    }

    @Override
    public void commit(Xid branch, boolean onePhase) throws XAException {
        if (onePhase) {
            onePhaseCommits.incrementAndGet();
        }
        super.commit(branch, onePhase);
    }
}
