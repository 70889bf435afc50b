package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConsumedMessages;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.error.JmsErrors;
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
            votes.put(participant, client.prepareTransaction(participant, id, "", coordinator,
                    work.acks(participant)));
        }
        for (Map.Entry<String, CompletableFuture<Void>> vote : votes.entrySet()) {
            ClientException failure = Outcomes.failureOf(vote.getValue());
            if (failure != null) {
                rollBackQuietly(id, work);
                throw rolledBack("transaction " + Long.toHexString(id) + " rolled back: broker " + vote.getKey()
                        + " did not prepare", failure);
            }
        }
        Decision decision = decide(coordinator, id, work.acks(coordinator));
        ClientException failure = decision.failure();
        if (failure != null) {
            if (decision.notCommitted()) {
                rollBackQuietly(id, work);
                throw rolledBack("transaction " + Long.toHexString(id) + " rolled back: broker " + coordinator
                        + (failure.isRefusal() ? " refused the commit" : " could not be reached"), failure);
            }
            JMSException unknown = new JMSException("the outcome of transaction " + Long.toHexString(id)
                    + " is unknown: broker " + coordinator + " did not answer the commit; the brokers resolve it "
                    + "between them once this connection closes");
            unknown.setLinkedException(failure);
            unknown.initCause(failure);
            throw unknown;
        }
        ledger.ended(id, true);
        List<CompletableFuture<Void>> decisions = new ArrayList<>();
        for (String participant : participants) {
            decisions.add(client.endTransaction(participant, id, "", true, List.of()));
        }
        for (int i = 0; i < decisions.size(); i++) {
            ClientException missed = Outcomes.failureOf(decisions.get(i));
            if (missed != null) {
                LOG.warn("transaction {} committed; broker {} did not hear it and learns it by check-back",
                        Long.toHexString(id), participants.get(i), missed);
            }
        }
    }

    /** Rolls back on every broker; throws when one could not be told (it rolls back by check-back). */
    public void rollback(long id, TransactionWork work) throws JMSException {
        ClientException failure = rollBackEverywhere(id, work);
        if (failure != null) {
            throw JmsErrors.toJms(failure);
        }
    }

    private void rollBackQuietly(long id, TransactionWork work) {
        rollBackEverywhere(id, work);
    }

    private ClientException rollBackEverywhere(long id, TransactionWork work) {
        List<String> brokers = work.brokers();
        if (brokers.isEmpty()) {
            ledger.forget(id);
            return null;
        }
        ledger.ended(id, false);
        List<CompletableFuture<Void>> ends = new ArrayList<>();
        for (String broker : brokers) {
            ends.add(client.endTransaction(broker, id, "", false, work.acks(broker)));
        }
        ClientException first = null;
        for (int i = 0; i < ends.size(); i++) {
            ClientException failure = Outcomes.failureOf(ends.get(i));
            if (failure != null) {
                LOG.warn("transaction {}: broker {} did not hear the rollback; it rolls back by check-back",
                        Long.toHexString(id), brokers.get(i), failure);
                first = first == null ? failure : first;
            }
        }
        return first;
    }

    /**
     * How the decision went: the last attempt's failure (null: committed), and whether an
     * earlier attempt may have reached the coordinator, whose answer was then lost.
     */
    private record Decision(ClientException failure, boolean earlierMayHaveArrived) {

        /**
         * Certainly not committed: the coordinator says it rolled back; or the last attempt
         * certainly did not apply (refused before acting, or never sent) and no earlier one
         * reached the coordinator.
         */
        boolean notCommitted() {
            if (failure.reason() == ClientException.Reason.ROLLED_BACK) {
                return true;
            }
            return !earlierMayHaveArrived && failure.certainlyNotApplied();
        }
    }

    /**
     * Sends the decision, asking again while no answer comes (or the coordinator is busy), for
     * {@code decisionRetry}.
     */
    private Decision decide(String coordinator, long id, List<ConsumedMessages> acks) {
        long deadline = System.nanoTime() + decisionRetry.toNanos();
        boolean mayHaveArrived = false;
        while (true) {
            ClientException failure = Outcomes.failureOf(client.endTransaction(coordinator, id, "", true, acks));
            boolean busy = failure != null && failure.reason() == ClientException.Reason.BUSY;
            if (failure == null || (failure.isRefusal() && !busy) || Thread.currentThread().isInterrupted()
                    || System.nanoTime() - deadline > 0) {
                return new Decision(failure, mayHaveArrived);
            }
            mayHaveArrived |= !failure.certainlyNotApplied();
            LOG.info("transaction {}: no answer from coordinator {} ({}), asking again",
                    Long.toHexString(id), coordinator, failure.toString());
            try {
                TimeUnit.MILLISECONDS.sleep(RETRY_DELAY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Decision(failure, mayHaveArrived);
            }
        }
    }

    private static TransactionRolledBackException rolledBack(String message, ClientException cause) {
        TransactionRolledBackException e = new TransactionRolledBackException(message + ": " + cause.getMessage());
        e.setLinkedException(cause);
        e.initCause(cause);
        return e;
    }
}
