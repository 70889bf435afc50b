package io.ramjet.ra;

import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The XA resource of one of the adapter's sessions, which can still complete its prepared
 * branches after its own connection is gone. A broker that restarts between prepare and commit
 * takes the connection with it (and the pool may already have closed it), but the prepared
 * branch survives in the broker's log: when the second phase fails with {@code XAER_RMFAIL},
 * the decision is carried to the broker by Xid over a fresh connection with the same settings,
 * retried for a while (also while no broker answers for the branch: a restarted broker
 * re-registers with its NameServer a moment after it listens), instead of leaving the
 * transaction in doubt until the server's next recovery. A branch counts as maybe prepared from
 * the moment prepare is asked (the broker may have written the vote and died before answering);
 * when no broker knows such a branch for {@code NOT_PREPARED_AFTER}, its rollback is done. A
 * branch never asked to prepare has nothing durable: its rollback is done once its connection is
 * lost, and a one-phase commit keeps its failure.
 */
final class CompletingXAResource extends DelegatingXAResource {

    private static final Logger LOG = LoggerFactory.getLogger(CompletingXAResource.class);
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Duration RETRY = Duration.ofMillis(500);
    private static final Duration NOT_PREPARED_AFTER = Duration.ofSeconds(10);

    private final ConnectionSettings settings;
    /** By the Xid's value: a transaction manager may hand a new Xid object to each call. */
    private final Set<String> maybePrepared = ConcurrentHashMap.newKeySet();

    CompletingXAResource(XAResource resource, ConnectionSettings settings) {
        super(resource);
        this.settings = settings;
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        maybePrepared.add(key(xid));
        try {
            int vote = super.prepare(xid);
            if (vote != XA_OK) {
                maybePrepared.remove(key(xid));
            }
            return vote;
        } catch (XAException e) {
            if (e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND) {
                maybePrepared.remove(key(xid));
            } else if (e.errorCode == XAException.XAER_RMFAIL) {
                rollBackUnheardVote(xid, e);
            }
            throw e;
        }
    }

    /**
     * A vote whose answer was lost may sit prepared at the broker, and a failed prepare can only
     * end in a rollback, which a transaction manager need not send to the resource that failed
     * (Payara's does not): the rollback is carried to the broker here, as for a failed second phase.
     */
    private void rollBackUnheardVote(Xid xid, XAException failure) {
        try {
            completeElsewhere(xid, "rollback", other -> other.rollback(xid), failure, true);
            maybePrepared.remove(key(xid));
        } catch (XAException e) {
            LOG.warn("branch {} may stay prepared at its broker until the transaction manager's recovery", xid, e);
        }
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            super.commit(xid, onePhase);
        } catch (XAException e) {
            if (onePhase || e.errorCode != XAException.XAER_RMFAIL) {
                throw e;
            }
            // a branch no broker knows after the wait was decided already: a prepared branch is
            // decided only by its transaction manager, and the broker forgets a decided Xid
            // (XAER_NOTA), so the first commit went through and only its answer was lost
            completeElsewhere(xid, "commit", other -> other.commit(xid, false), e, true);
        } finally {
            maybePrepared.remove(key(xid));
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        try {
            super.rollback(xid);
        } catch (XAException e) {
            if (e.errorCode != XAException.XAER_RMFAIL) {
                throw e;
            }
            if (maybePrepared.contains(key(xid))) {
                completeElsewhere(xid, "rollback", other -> other.rollback(xid), e, true);
            } else {
                LOG.debug("rollback of an unprepared branch whose connection is lost: nothing of it is kept", e);
            }
        } finally {
            maybePrepared.remove(key(xid));
        }
    }

    private static String key(Xid xid) {
        return xid.getFormatId() + ":" + HexFormat.of().formatHex(xid.getGlobalTransactionId()) + ":"
                + HexFormat.of().formatHex(xid.getBranchQualifier());
    }

    private interface Decision {
        void apply(XAResource resource) throws XAException;
    }

    /**
     * Carries the decision over new connections until a broker takes it or {@code PATIENCE}
     * passes; with {@code unknownMeansDone}, a branch no broker knows for
     * {@code NOT_PREPARED_AFTER} is done: a rollback's was never prepared, a commit's was
     * committed by the attempt whose answer was lost.
     */
    private void completeElsewhere(Xid xid, String what, Decision decision, XAException failure,
                                   boolean unknownMeansDone) throws XAException {
        LOG.warn("{} of a prepared branch failed on its own connection ({}); completing it over a new connection to {}",
                what, failure.getMessage(), settings);
        long start = System.nanoTime();
        long deadline = start + PATIENCE.toNanos();
        while (true) {
            try (XAConnection connection = settings.openXA()) {
                decision.apply(connection.createXASession().getXAResource());
                LOG.info("{} of the prepared branch {} completed over a new connection", what, xid);
                return;
            } catch (JMSException e) {
                LOG.debug("broker not reachable yet for the {}", what, e);
            } catch (XAException e) {
                if (e.errorCode != XAException.XAER_RMFAIL && e.errorCode != XAException.XAER_NOTA) {
                    throw e;
                }
                if (e.errorCode == XAException.XAER_NOTA && unknownMeansDone
                        && System.nanoTime() - start > NOT_PREPARED_AFTER.toNanos()) {
                    LOG.info("no broker holds the branch {}: its {} is done", xid, what);
                    return;
                }
                LOG.debug("the {} is not through yet", what, e);
            }
            if (System.nanoTime() > deadline) {
                throw failure;
            }
            LockSupport.parkNanos(RETRY.toNanos());
        }
    }
}
