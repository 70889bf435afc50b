package io.ramjet.provider.jms.transaction;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.provider.client.ClientErrors;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.JMSException;
import jakarta.jms.TransactionRolledBackException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a local transaction on the brokers it touched. One broker: the decision (TX_END) alone.
 * Several: the first touched is the coordinator; every other participant is prepared (TX_PREPARE
 * naming the coordinator), then the decision is recorded on the coordinator, then sent to the
 * others.
 *
 * <p>A failure before the decision rolls back everywhere reachable and throws
 * {@link TransactionRolledBackException}. A decision the coordinator refuses, or that never
 * reached it (no connection could be opened; the coordinator then presumes abort), does the
 * same; a decision whose answer is lost is asked again (it is idempotent) for the request
 * timeout, and when it stays unanswered the outcome is unknown: {@link JMSException}, and the ledger keeps
 * the transaction OPEN so that the participants ask the coordinator once this connection is
 * gone. A participant that misses the decision after it was recorded learns it by check-back,
 * so the commit succeeds.
 */
public final class TwoPhaseCommit {

    private static final Logger LOG = LoggerFactory.getLogger(TwoPhaseCommit.class);
    private static final long RETRY_DELAY_MILLIS = 100;

    private final RamjetClient client;
    private final TransactionLedger ledger;
    private final Duration decisionRetry;

    public TwoPhaseCommit(RamjetClient client, TransactionLedger ledger, Duration decisionRetry) {
        this.client = client;
        this.ledger = ledger;
        this.decisionRetry = decisionRetry;
    }

    public void commit(long id, TransactionWork work) throws JMSException {
        List<String> brokers = work.brokers();
        if (brokers.isEmpty()) {
            ledger.forget(id);
            return;
        }
        String coordinator = brokers.get(0);
        List<String> participants = brokers.subList(1, brokers.size());
        Map<String, CompletableFuture<Void>> votes = new LinkedHashMap<>();
        for (String participant : participants) {
            votes.put(participant, client.prepareTransaction(participant,
                    new TxPrepareRequest(id, "", coordinator, work.acks(participant))));
        }
        for (Map.Entry<String, CompletableFuture<Void>> vote : votes.entrySet()) {
            Throwable failure = Outcomes.failureOf(vote.getValue());
            if (failure != null) {
                rollBackQuietly(id, work);
                throw rolledBack("transaction " + Long.toHexString(id) + " rolled back: broker " + vote.getKey()
                        + " did not prepare", failure);
            }
        }
        Decision decision = decide(coordinator, new TxEndRequest(id, "", true, work.acks(coordinator)));
        Throwable failure = decision.failure();
        if (failure != null) {
            if (decision.notCommitted()) {
                rollBackQuietly(id, work);
                throw rolledBack("transaction " + Long.toHexString(id) + " rolled back: broker " + coordinator
                        + (Outcomes.isRefusal(failure) ? " refused the commit" : " could not be reached"), failure);
            }
            JMSException unknown = new JMSException("the outcome of transaction " + Long.toHexString(id)
                    + " is unknown: broker " + coordinator + " did not answer the commit; the brokers resolve it "
                    + "between them once this connection closes");
            unknown.setLinkedException(failure instanceof Exception e ? e : null);
            unknown.initCause(failure);
            throw unknown;
        }
        ledger.ended(id, true);
        List<CompletableFuture<Void>> decisions = new ArrayList<>();
        for (String participant : participants) {
            decisions.add(client.endTransaction(participant, new TxEndRequest(id, "", true, List.of())));
        }
        for (int i = 0; i < decisions.size(); i++) {
            Throwable missed = Outcomes.failureOf(decisions.get(i));
            if (missed != null) {
                LOG.warn("transaction {} committed; broker {} did not hear it and learns it by check-back",
                        Long.toHexString(id), participants.get(i), missed);
            }
        }
    }

    /** Rolls back on every broker; throws when one could not be told (it rolls back by check-back). */
    public void rollback(long id, TransactionWork work) throws JMSException {
        Throwable failure = rollBackEverywhere(id, work);
        if (failure != null) {
            throw ClientErrors.toJms(failure);
        }
    }

    private void rollBackQuietly(long id, TransactionWork work) {
        rollBackEverywhere(id, work);
    }

    private Throwable rollBackEverywhere(long id, TransactionWork work) {
        List<String> brokers = work.brokers();
        if (brokers.isEmpty()) {
            ledger.forget(id);
            return null;
        }
        ledger.ended(id, false);
        List<CompletableFuture<Void>> ends = new ArrayList<>();
        for (String broker : brokers) {
            ends.add(client.endTransaction(broker, new TxEndRequest(id, "", false, work.acks(broker))));
        }
        Throwable first = null;
        for (int i = 0; i < ends.size(); i++) {
            Throwable failure = Outcomes.failureOf(ends.get(i));
            if (failure != null) {
                LOG.warn("transaction {}: broker {} did not hear the rollback; it rolls back by check-back",
                        Long.toHexString(id), brokers.get(i), failure);
                first = first == null ? failure : first;
            }
        }
        return first;
    }

    /** How the decision went: its last failure (null on success), and whether any attempt may have arrived. */
    /**
     * How the decision went: the last attempt's failure (null: committed), and whether an
     * earlier attempt may have reached the coordinator, whose answer was then lost.
     */
    private record Decision(Throwable failure, boolean earlierMayHaveArrived) {

        /**
         * Certainly not committed: the coordinator says it rolled back; or it refused the only
         * attempt that reached it (a refusal other than an internal error, which could come
         * after the commit record was written); or no attempt ever reached it.
         */
        boolean notCommitted() {
            if (Outcomes.isRolledBack(failure)) {
                return true;
            }
            if (earlierMayHaveArrived) {
                return false;
            }
            return Outcomes.isRefusal(failure) ? !Outcomes.hasStatus(failure, ErrorStatus.INTERNAL_ERROR)
                    : Outcomes.neverSent(failure);
        }
    }

    /**
     * Sends the decision, asking again while no answer comes (or the coordinator is busy), for
     * {@code decisionRetry}.
     */
    private Decision decide(String coordinator, TxEndRequest decision) {
        long deadline = System.nanoTime() + decisionRetry.toNanos();
        boolean mayHaveArrived = false;
        while (true) {
            Throwable failure = Outcomes.failureOf(client.endTransaction(coordinator, decision));
            boolean busy = Outcomes.hasStatus(failure, ErrorStatus.BUSY);
            if (failure == null || (Outcomes.isRefusal(failure) && !busy) || failure instanceof InterruptedException
                    || System.nanoTime() - deadline > 0) {
                return new Decision(failure, mayHaveArrived);
            }
            mayHaveArrived |= !busy && !Outcomes.neverSent(failure);
            LOG.info("transaction {}: no answer from coordinator {} ({}), asking again",
                    Long.toHexString(decision.transactionId()), coordinator, failure.toString());
            try {
                TimeUnit.MILLISECONDS.sleep(RETRY_DELAY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Decision(failure, mayHaveArrived);
            }
        }
    }

    private static TransactionRolledBackException rolledBack(String message, Throwable cause) {
        TransactionRolledBackException e = new TransactionRolledBackException(message + ": " + cause.getMessage());
        if (cause instanceof Exception ex) {
            e.setLinkedException(ex);
        }
        e.initCause(cause);
        return e;
    }
}
