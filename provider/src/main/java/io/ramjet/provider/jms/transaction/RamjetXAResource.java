package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.JMSException;
import jakarta.jms.TransactionRolledBackException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The XAResource of one XA session. start and end associate the session with a branch;
 * prepare writes the branch's half records and pending acknowledgements under its Xid on every
 * broker it touched (XA_RDONLY when it touched none); commit and rollback send the decision
 * there. A one-phase commit is a local transaction's commit. A branch this connection does not
 * know (recovered after a restart of either side) is ended by Xid on every live master broker
 * (XAER_NOTA when none of them knows it). {@link #recover} lists the prepared Xids
 * of every broker, whole at TMSTARTRSCAN. Two resources are the same resource manager when
 * they share their {@link XaBranches}: those of one connection, or of the connections of one user
 * opened with one {@code XaResourceManager}. A session of any of them joins (TMJOIN) a branch
 * another started, and its sends and consumed messages are the branch's, which any of them
 * prepares and completes (the brokers take the work of every connection of a branch's user as
 * the branch's). A rollback through one of them rolls back the work of every session joined to
 * the branch, also of sessions still associated with it (a transaction manager may end those
 * after the rollback, as Payara's does, or not at all): their end only dissociates them, a
 * later start finds them free, and a send they make in the rolled-back branch is refused.
 */
public final class RamjetXAResource implements XAResource {

    private static final Logger LOG = LoggerFactory.getLogger(RamjetXAResource.class);

    private final XaBranches branches;
    private final XaSessionTransaction session;
    private final RamjetClient client;
    private final TransactionLedger ledger;
    private final TwoPhaseCommit onePhase;
    private volatile int timeoutSeconds;

    public RamjetXAResource(XaBranches branches, XaSessionTransaction session, RamjetClient client,
                            TransactionLedger ledger, TwoPhaseCommit onePhase) {
        this.branches = branches;
        this.session = session;
        this.client = client;
        this.ledger = ledger;
        this.onePhase = onePhase;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        XaBranch previous = session.current();
        if (previous != null && branches.isCompleted(previous)) {
            session.dissociate();
        }
        if (session.current() != null) {
            throw XaErrors.of(XAException.XAER_PROTO, "the session is already associated with branch "
                    + session.current().xid);
        }
        session.associate(branches.start(encode(xid), flags, timeoutSeconds));
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        XaBranch branch = session.current();
        String id = encode(xid);
        if (branch == null || !branch.xid.equals(id)) {
            XaBranch known = branches.get(id);
            if (known == null) {
                throw XaErrors.of(XAException.XAER_NOTA, "no branch " + id);
            }
            if (known.state != XaBranch.State.SUSPENDED && !endedByAll(known, flags)) {
                throw XaErrors.of(XAException.XAER_PROTO, "the session is not associated with branch " + id);
            }
            branches.end(known, flags);
            return;
        }
        session.dissociate();
        if (!branches.isCompleted(branch)) {
            branches.end(branch, flags);
        }
    }

    /**
     * Whether {@code end(flags)} ends again a branch no session is associated with any more: a
     * transaction manager that joined several resources to one branch ends each of them once more
     * before it completes the branch (Narayana does), which changes nothing but that a
     * {@code TMFAIL} still marks the branch rollback-only.
     */
    private static boolean endedByAll(XaBranch branch, int flags) {
        return flags != TMSUSPEND && branch.associations == 0
                && (branch.state == XaBranch.State.IDLE || branch.state == XaBranch.State.ROLLBACK_ONLY);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        XaBranch branch = completable(xid);
        checkCommittable(branch);
        if (branch.work.isEmpty()) {
            branches.remove(branch);
            ledger.forget(branch.transactionId);
            return XA_RDONLY;
        }
        List<String> brokers = branch.work.brokers();
        List<CompletableFuture<Void>> votes = new ArrayList<>();
        for (String broker : brokers) {
            votes.add(client.prepareTransaction(broker, branch.transactionId, branch.xid, "",
                    branch.work.acks(broker)));
        }
        for (int i = 0; i < votes.size(); i++) {
            ClientException failure = Outcomes.failureOf(votes.get(i));
            if (failure != null) {
                throw refusedVote(branch, brokers.get(i), failure);
            }
        }
        branches.prepared(branch);
        return XA_OK;
    }

    /**
     * A vote that did not come back rolls the branch back. When the answer was lost rather than
     * refused, the broker may have written the vote: the branch is then treated as prepared, so
     * that a rollback which cannot reach the broker leaves it in doubt (XAER_RMFAIL: the transaction
     * manager rolls it back later, by Xid) instead of claiming a rollback that never happened.
     */
    private XAException refusedVote(XaBranch branch, String broker, ClientException failure) {
        if (!failure.certainlyNotApplied()) {
            branches.prepared(branch);
        }
        ClientException unheard = rollBack(branch);
        XAException e = unheard != null && branch.state == XaBranch.State.PREPARED
                ? XaErrors.of(XAException.XAER_RMFAIL, "branch " + branch.xid + " may be prepared on broker " + broker
                        + " (" + failure.getMessage() + ") and its rollback did not reach it: roll it back again")
                : XaErrors.of(XAException.XA_RBROLLBACK, "branch " + branch.xid + " rolled back: broker " + broker
                        + " did not prepare: " + failure.getMessage());
        e.initCause(failure);
        return e;
    }

    @Override
    public void commit(Xid xid, boolean onePhaseCommit) throws XAException {
        String id = encode(xid);
        XaBranch branch = branches.get(id);
        if (branch == null) {
            if (onePhaseCommit) {
                throw XaErrors.of(XAException.XAER_NOTA, "no branch " + id);
            }
            endEverywhere(id, true);
            return;
        }
        if (onePhaseCommit) {
            commitOnePhase(branch);
            return;
        }
        if (branch.state != XaBranch.State.PREPARED) {
            throw XaErrors.of(XAException.XAER_PROTO, "branch " + id + " is " + branch.state + ", not prepared");
        }
        List<String> brokers = branch.work.brokers();
        List<CompletableFuture<Void>> decisions = new ArrayList<>();
        for (String broker : brokers) {
            decisions.add(client.endTransaction(broker, branch.transactionId, id, true, List.of()));
        }
        for (int i = 0; i < decisions.size(); i++) {
            ClientException failure = Outcomes.failureOf(decisions.get(i));
            if (failure != null) {
                throw XaErrors.of(failure, "commit of branch " + id + " on broker " + brokers.get(i));
            }
        }
        ledger.ended(branch.transactionId, true);
        branches.remove(branch);
    }

    private void commitOnePhase(XaBranch branch) throws XAException {
        if (branch.state == XaBranch.State.PREPARED) {
            throw XaErrors.of(XAException.XAER_PROTO, "branch " + branch.xid + " is prepared: commit it in two phases");
        }
        checkCommittable(branch);
        try {
            onePhase.commit(branch.transactionId, branch.work);
            branches.remove(branch);
        } catch (TransactionRolledBackException e) {
            branches.remove(branch);
            XAException x = XaErrors.of(XAException.XA_RBROLLBACK, e.getMessage());
            x.initCause(e);
            throw x;
        } catch (JMSException e) {
            XAException x = XaErrors.of(XAException.XAER_RMFAIL, e.getMessage());
            x.initCause(e);
            throw x;
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        String id = encode(xid);
        XaBranch branch = branches.get(id);
        if (branch == null) {
            endEverywhere(id, false);
            return;
        }
        if (session.current() == branch) {
            throw XaErrors.of(XAException.XAER_PROTO, "branch " + id + " is still associated with this session");
        }
        ClientException failure = rollBack(branch);
        if (failure != null) {
            throw XaErrors.of(failure, "rollback of branch " + id);
        }
    }

    /** Rolls the branch back on every broker it touched; the first failure, or null. */
    private ClientException rollBack(XaBranch branch) {
        branch.work.awaitSends();
        ledger.ended(branch.transactionId, false);
        boolean prepared = branch.state == XaBranch.State.PREPARED;
        List<String> brokers = branch.work.brokers();
        List<CompletableFuture<Void>> ends = new ArrayList<>();
        for (String broker : brokers) {
            ends.add(client.endTransaction(broker, branch.transactionId, prepared ? branch.xid : "", false,
                    branch.work.acks(broker)));
        }
        ClientException first = null;
        for (int i = 0; i < ends.size(); i++) {
            ClientException failure = Outcomes.failureOf(ends.get(i));
            if (failure != null) {
                LOG.warn("branch {}: broker {} did not hear the rollback", branch.xid, brokers.get(i), failure);
                first = first == null ? failure : first;
            }
        }
        if (first == null || !prepared) {
            branches.remove(branch);
        }
        return first;
    }

    /** Ends a branch known only by its Xid on every live master broker. */
    private void endEverywhere(String id, boolean commit) throws XAException {
        List<String> masters;
        try {
            masters = client.masterAddresses().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw XaErrors.of(XAException.XAER_RMFAIL, "interrupted");
        } catch (Exception e) {
            throw XaErrors.of(ClientException.of(e), "no broker list");
        }
        if (masters.isEmpty()) {
            // no broker registered yet (one restarting): the branch may well exist, so the transaction
            // manager must retry rather than forget it
            throw XaErrors.of(XAException.XAER_RMFAIL, "no broker is registered to complete branch " + id);
        }
        boolean known = false;
        for (String broker : masters) {
            ClientException failure = Outcomes.failureOf(client.endTransaction(broker, 0, id, commit, List.of()));
            if (failure == null) {
                known = true;
            } else if (failure.reason() != ClientException.Reason.UNKNOWN_TRANSACTION) {
                throw XaErrors.of(failure, (commit ? "commit" : "rollback") + " of branch " + id + " on " + broker);
            }
        }
        if (!known) {
            throw XaErrors.of(XAException.XAER_NOTA, "no broker knows branch " + id);
        }
    }

    private XaBranch completable(Xid xid) throws XAException {
        String id = encode(xid);
        XaBranch branch = branches.get(id);
        if (branch == null) {
            throw XaErrors.of(XAException.XAER_NOTA, "no branch " + id);
        }
        if (branch.state == XaBranch.State.ACTIVE || branch.state == XaBranch.State.SUSPENDED
                || branch.state == XaBranch.State.PREPARED) {
            throw XaErrors.of(XAException.XAER_PROTO, "branch " + id + " is " + branch.state);
        }
        return branch;
    }

    /** A branch that must roll back instead is rolled back, with the XA_RB* code that says why. */
    private void checkCommittable(XaBranch branch) throws XAException {
        int code;
        String why;
        if (branch.state == XaBranch.State.ROLLBACK_ONLY) {
            code = XAException.XA_RBROLLBACK;
            why = "it is marked rollback-only";
        } else if (branch.timedOut()) {
            code = XAException.XA_RBTIMEOUT;
            why = "its transaction timeout passed";
        } else if (branch.work.awaitSends() != null) {
            code = XAException.XA_RBROLLBACK;
            why = "one of its sends failed";
        } else {
            return;
        }
        rollBack(branch);
        throw XaErrors.of(code, "branch " + branch.xid + " rolled back: " + why);
    }

    @Override
    public Xid[] recover(int flags) throws XAException {
        if ((flags & ~(TMSTARTRSCAN | TMENDRSCAN)) != 0) {
            throw XaErrors.of(XAException.XAER_INVAL, "recover flags " + flags);
        }
        if ((flags & TMSTARTRSCAN) == 0) {
            return new Xid[0];
        }
        try {
            return client.recoverXids().get().stream().map(RamjetXid::decode).toArray(Xid[]::new);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw XaErrors.of(XAException.XAER_RMFAIL, "interrupted");
        } catch (Exception e) {
            throw XaErrors.of(ClientException.of(e), "recover");
        }
    }

    /** The brokers never decide a prepared branch on their own, so there is no heuristic outcome to forget. */
    @Override
    public void forget(Xid xid) throws XAException {
        XaBranch branch = branches.get(encode(xid));
        if (branch == null) {
            throw XaErrors.of(XAException.XAER_NOTA, "no heuristically completed branch " + encode(xid));
        }
        branches.remove(branch);
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other instanceof RamjetXAResource r && r.branches == branches;
    }

    @Override
    public int getTransactionTimeout() {
        return timeoutSeconds;
    }

    /** Seconds a branch may take from start to prepare (or one-phase commit); 0 for no limit. */
    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        if (seconds < 0) {
            throw XaErrors.of(XAException.XAER_INVAL, "a negative timeout: " + seconds);
        }
        timeoutSeconds = seconds;
        return true;
    }

    private static String encode(Xid xid) throws XAException {
        if (xid == null) {
            throw XaErrors.of(XAException.XAER_INVAL, "no xid");
        }
        return RamjetXid.encode(xid);
    }
}
