package io.ramjet.provider.jms.transaction;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ConsumedMessages;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The context of a transacted session: there is always a current transaction, with a random
 * nonzero id, and a new one after each commit or rollback. Its sends carry the id (half records
 * at the broker); the messages it consumes stay in flight until the commit acknowledges them.
 * A failed send dooms the transaction: its commit rolls back. A transaction on one broker is
 * committed right behind its sends, without waiting for their answers first (one round trip, not
 * two): the broker commits only if it holds every message sent.
 *
 * <p>A message the application was given is never given back as unseen: when a transaction
 * ends without its brokers confirming what became of the messages it consumed (its rollback and
 * the release after it unanswered, or its commit's outcome unknown), the context keeps them as
 * consumed ({@link #consumedFrom}, so a closing consumer leaves them delivered at the broker)
 * and releases them counted at the next rollback and at close, until a broker answers.
 */
public final class LocalTransaction implements TransactionContext {

    private final TransactionLedger ledger;
    private final TwoPhaseCommit protocol;
    private final int sendsInFlight;
    private long id;
    private TransactionWork work;
    /** Consumed messages of ended transactions whose brokers did not confirm their fate. */
    private final List<ConsumedMessages> unsettled = new ArrayList<>();

    /** @param sendsInFlight the most unanswered sends of one transaction */
    public LocalTransaction(TransactionLedger ledger, TwoPhaseCommit protocol, int sendsInFlight) {
        this.ledger = ledger;
        this.protocol = protocol;
        this.sendsInFlight = sendsInFlight;
        begin();
    }

    /** A random nonzero transaction id. */
    static long newTransactionId() {
        long id;
        do {
            id = ThreadLocalRandom.current().nextLong();
        } while (id == 0);
        return id;
    }

    private synchronized void begin() {
        id = newTransactionId();
        work = new TransactionWork(sendsInFlight);
        ledger.opened(id);
    }

    /** The current transaction's id. */
    public synchronized long transactionId() {
        return id;
    }

    @Override
    public boolean isTransacted() {
        return true;
    }

    @Override
    public CompletableFuture<Void> send(RamjetClient client, OutgoingMessage message, int queueChoice) {
        TransactionWork current;
        long currentId;
        synchronized (this) {
            current = work;
            currentId = id;
        }
        TransactionWork.Handoff handoff = current.sendBegins();
        CompletableFuture<Void> send = client.sendInTransaction(message, queueChoice, currentId, handoff);
        current.sending(send, handoff);
        return send;
    }

    @Override
    public boolean confirmsLater(OutgoingMessage message) {
        return true;
    }

    @Override
    public synchronized boolean consumed(Delivery delivery) {
        work.consumed(delivery.consumer(), delivery.position());
        return true;
    }

    @Override
    public boolean holdsConsumed() {
        return true;
    }

    @Override
    public synchronized List<MessagePosition> consumedFrom(ConsumerInfo attachment) {
        List<MessagePosition> consumed = new ArrayList<>(work.consumedFrom(attachment));
        for (ConsumedMessages c : unsettled) {
            if (c.attachment().equals(attachment)) {
                consumed.addAll(c.positions());
            }
        }
        return consumed;
    }

    @Override
    public void commit() throws JMSException {
        long ending;
        TransactionWork ended;
        synchronized (this) {
            ending = id;
            ended = work;
            begin();
        }
        try {
            end(ending, ended);
        } finally {
            keepUnsettled(ended);
        }
    }

    private void end(long ending, TransactionWork ended) throws JMSException {
        if (ended.awaitHandoffs()) {
            protocol.commitBehindSends(ending, ended);
            return;
        }
        Throwable sendFailure = ended.awaitSends();
        if (sendFailure != null) {
            try {
                protocol.rollback(ending, ended);
            } catch (JMSException e) {
                // the transaction rolls back either way: by this call or by check-back
            }
            throw TwoPhaseCommit.sendFailed(ending, sendFailure);
        }
        protocol.commit(ending, ended);
    }

    @Override
    public void rollback() throws JMSException {
        long ending;
        TransactionWork ended;
        synchronized (this) {
            ending = id;
            ended = work;
            begin();
        }
        ended.awaitSends();
        try {
            protocol.rollback(ending, ended);
        } finally {
            keepUnsettled(ended);
            releaseUnsettled();
        }
    }

    private synchronized void keepUnsettled(TransactionWork ended) {
        unsettled.addAll(ended.leftUnsettled());
    }

    /** Tries again to give back counted what earlier transactions left unsettled. */
    private void releaseUnsettled() {
        List<ConsumedMessages> retried;
        synchronized (this) {
            if (unsettled.isEmpty()) {
                return;
            }
            retried = List.copyOf(unsettled);
        }
        List<ConsumedMessages> still = protocol.releaseCounted(retried);
        synchronized (this) {
            unsettled.removeAll(retried);
            unsettled.addAll(0, still);
        }
    }

    @Override
    public void close() throws JMSException {
        rollback();
    }
}
