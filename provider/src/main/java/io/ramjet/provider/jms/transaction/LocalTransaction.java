package io.ramjet.provider.jms.transaction;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.JMSException;
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
 */
public final class LocalTransaction implements TransactionContext {

    private final TransactionLedger ledger;
    private final TwoPhaseCommit protocol;
    private final int sendsInFlight;
    private long id;
    private TransactionWork work;

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
        return work.consumedFrom(attachment);
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
        protocol.rollback(ending, ended);
    }

    @Override
    public void close() throws JMSException {
        rollback();
    }
}
