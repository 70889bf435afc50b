package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConsumedMessages;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.error.JmsErrors;
import jakarta.jms.JMSException;
import jakarta.jms.TransactionRolledBackException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a local transaction on the brokers it touched. One broker: the decision (TX_END) alone.
 * Several: the first touched is the coordinator; every other participant is prepared (TX_PREPARE
 * naming the coordinator), then the decision is recorded on the coordinator, then sent to the
 * others.
 *
 * <p>A failure before the decision rolls back everywhere reachable and throws
 * {@link TransactionRolledBackException}. So does a decision that the client says certainly
 * did not apply ({@link RamjetClient#commitTransaction}: refused, or never reached the
 * coordinator, which then presumes abort). When its outcome is unknown (the client asked again
 * for as long as its policy allows): {@link JMSException}, and the ledger keeps the transaction
 * OPEN so that the participants ask the coordinator once this connection is gone. A participant that misses the decision after it was recorded learns it by check-back,
 * so the commit succeeds.
 */
public final class TwoPhaseCommit {

    private static final Logger LOG = LoggerFactory.getLogger(TwoPhaseCommit.class);

    private final RamjetClient client;
    private final TransactionLedger ledger;

    public TwoPhaseCommit(RamjetClient client, TransactionLedger ledger) {
        this.client = client;
        this.ledger = ledger;
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
        ClientException failure = Outcomes.failureOf(client.commitTransaction(coordinator, id, work.acks(coordinator)));
        if (failure != null) {
            if (failure.certainlyNotApplied()) {
                rollBackQuietly(id, work);
                throw rolledBack("transaction " + Long.toHexString(id) + " rolled back: broker " + coordinator
                        + (failure.isRefusal() ? " refused the commit" : " could not be reached"), failure);
            }
            work.leftUnsettled(allAcks(work));
            throw unknown(id, coordinator, failure);
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

    /**
     * Commits a transaction on its one broker with the number of messages handed to it, sent
     * behind them without waiting for their answers ({@link TransactionWork#awaitHandoffs} said
     * so). The broker commits only if it holds them all, so its answer is the outcome: a commit
     * it refused rolled back (the first failed send, if any, says why), one unanswered is unknown.
     */
    public void commitBehindSends(long id, TransactionWork work) throws JMSException {
        String broker = work.brokers().get(0);
        CompletableFuture<Void> decision = client.commitCounted(broker, id, work.handedTo(broker), work.acks(broker));
        ClientException failure = Outcomes.failureOf(decision);
        Throwable sendFailure = work.awaitSends();
        if (failure == null) {
            ledger.ended(id, true);
            return;
        }
        if (!failure.certainlyNotApplied()) {
            work.leftUnsettled(work.acks(broker));
            throw unknown(id, broker, failure);
        }
        rollBackQuietly(id, work);
        if (sendFailure != null) {
            throw sendFailed(id, sendFailure);
        }
        throw rolledBack("transaction " + Long.toHexString(id) + " rolled back: broker " + broker
                + (failure.isRefusal() ? " refused the commit" : " could not be reached"), failure);
    }

    /**
     * Rolls back on every broker; throws when one could not be told (it rolls back by check-back).
     * The messages consumed from a broker that did not answer are released there, counted, so
     * that they come again flagged redelivered; those whose release was not answered either are
     * {@link TransactionWork#leftUnsettled left unsettled}.
     */
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
                work.leftUnsettled(releaseCounted(work.acks(brokers.get(i))));
            }
        }
        return first;
    }

    /**
     * Gives consumed messages back to their brokers with the delivery counted, so they come again
     * flagged redelivered; a message no longer in flight to its consumer (acknowledged, or taken
     * by a transaction's commit) is left as it is. Returns those whose release was not answered
     * by a broker that still has their consumer (one that lost it counts their delivery itself).
     */
    public List<ConsumedMessages> releaseCounted(List<ConsumedMessages> consumed) {
        List<CompletableFuture<Void>> releases = new ArrayList<>();
        for (ConsumedMessages c : consumed) {
            releases.add(client.release(c.attachment(), c.positions(), true));
        }
        List<ConsumedMessages> unanswered = new ArrayList<>();
        for (int i = 0; i < releases.size(); i++) {
            ClientException failure = Outcomes.failureOf(releases.get(i));
            if (failure != null && !failure.isBrokerGone()) {
                unanswered.add(consumed.get(i));
            }
        }
        return unanswered;
    }

    private static List<ConsumedMessages> allAcks(TransactionWork work) {
        List<ConsumedMessages> all = new ArrayList<>();
        for (String broker : work.brokers()) {
            all.addAll(work.acks(broker));
        }
        return all;
    }

    /** The end of a transaction rolled back because one of its sends failed. */
    static TransactionRolledBackException sendFailed(long id, Throwable sendFailure) {
        TransactionRolledBackException rolledBack = new TransactionRolledBackException("transaction "
                + Long.toHexString(id) + " rolled back: one of its sends failed: " + sendFailure.getMessage());
        rolledBack.initCause(sendFailure);
        return rolledBack;
    }

    private static JMSException unknown(long id, String coordinator, ClientException failure) {
        JMSException unknown = new JMSException("the outcome of transaction " + Long.toHexString(id)
                + " is unknown: broker " + coordinator + " did not answer the commit; the brokers resolve it "
                + "between them once this connection closes");
        unknown.setLinkedException(failure);
        unknown.initCause(failure);
        return unknown;
    }

        private static TransactionRolledBackException rolledBack(String message, ClientException cause) {
        TransactionRolledBackException e = new TransactionRolledBackException(message + ": " + cause.getMessage());
        e.setLinkedException(cause);
        e.initCause(cause);
        return e;
    }
}
