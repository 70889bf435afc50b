package io.ramjet.provider.jms.transaction;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.JMSException;
import jakarta.jms.TransactionInProgressException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The context of an XA session. While its XAResource associates it with a branch, its sends
 * and consumed messages are the branch's work; outside a global transaction it sends plainly
 * and acknowledges each consumed message at once, like AUTO_ACKNOWLEDGE. Commit and rollback
 * belong to the transaction manager; a send in a branch completed through another session joined
 * to it (before this one was ended) is refused.
 */
public final class XaSessionTransaction implements TransactionContext {

    private volatile XaBranch current;

    XaBranch current() {
        return current;
    }

    void associate(XaBranch branch) {
        current = branch;
    }

    void dissociate() {
        current = null;
    }

    @Override
    public boolean isTransacted() {
        return true;
    }

    @Override
    public CompletableFuture<Void> send(RamjetClient client, OutgoingMessage message, int queueChoice) {
        XaBranch branch = current;
        if (branch == null) {
            return client.send(message, queueChoice);
        }
        if (branch.completed) {
            return CompletableFuture.failedFuture(ClientException.refused(ClientException.Reason.ROLLED_BACK,
                    "XA branch " + branch.xid + " is already completed"));
        }
        CompletableFuture<Void> send = client.sendInTransaction(message, queueChoice, branch.transactionId,
                branch.work::touch);
        branch.work.sending(send);
        return send;
    }

    @Override
    public boolean confirmsLater(OutgoingMessage message) {
        return current != null;
    }

    @Override
    public boolean consumed(Delivery delivery) {
        XaBranch branch = current;
        if (branch == null) {
            return false;
        }
        branch.work.consumed(delivery.consumer(), delivery.position());
        return true;
    }

    @Override
    public boolean holdsConsumed() {
        return current != null;
    }

    @Override
    public List<MessagePosition> consumedFrom(ConsumerInfo attachment) {
        XaBranch branch = current;
        return branch == null ? List.of() : branch.work.consumedFrom(attachment);
    }

    @Override
    public void commit() throws JMSException {
        throw new TransactionInProgressException("an XA session commits through its XAResource");
    }

    @Override
    public void rollback() throws JMSException {
        throw new TransactionInProgressException("an XA session rolls back through its XAResource");
    }

    @Override
    public void close() {
        // an associated branch belongs to its transaction manager, which ends it
    }
}
