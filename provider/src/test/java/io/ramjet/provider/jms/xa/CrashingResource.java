package io.ramjet.provider.jms.xa;

import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The second participant of a test transaction: a resource manager with no data that runs a
 * crash (killing a broker) at one step of two-phase commit, so that the step of the other
 * participant that follows meets a dead broker. It remembers the Xid it was given and the steps
 * the transaction manager took with it. It recovers nothing: what it prepares it forgets.
 */
final class CrashingResource implements XAResource {

    private final Runnable crash;
    private final boolean atCommit;
    private final List<String> steps = new ArrayList<>();
    private volatile Xid xid;

    private CrashingResource(Runnable crash, boolean atCommit) {
        this.crash = crash;
        this.atCommit = atCommit;
    }

    /** Prepares, then crashes when told to commit, and commits. */
    static CrashingResource crashingAtCommit(Runnable crash) {
        return new CrashingResource(crash, true);
    }

    /** Crashes when told to prepare, then votes rollback (XA_RBROLLBACK). */
    static CrashingResource crashingAtPrepareAndVotingRollback(Runnable crash) {
        return new CrashingResource(crash, false);
    }

    Xid xid() {
        return xid;
    }

    synchronized List<String> steps() {
        return List.copyOf(steps);
    }

    private synchronized void step(String name) {
        steps.add(name);
    }

    @Override
    public void start(Xid xid, int flags) {
        this.xid = xid;
        step("start");
    }

    @Override
    public void end(Xid xid, int flags) {
        step("end");
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        step("prepare");
        if (!atCommit) {
            crash.run();
            throw new XAException(XAException.XA_RBROLLBACK);
        }
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) {
        step(onePhase ? "commit one phase" : "commit");
        if (atCommit) {
            crash.run();
        }
    }

    @Override
    public void rollback(Xid xid) {
        step("rollback");
    }

    @Override
    public void forget(Xid xid) {
        step("forget");
    }

    @Override
    public Xid[] recover(int flags) {
        return new Xid[0];
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }
}
