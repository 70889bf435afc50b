package io.ramjet.provider.jms.transaction;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The context of a session that is not transacted: plain sends, commit and rollback refused.
 * NON_PERSISTENT sends are pipelined (at most {@code inFlight} unanswered):
 * the failure of one is thrown by the session's next send, and close waits for them all.
 */
public final class NoTransaction implements TransactionContext {

    private static final Logger LOG = LoggerFactory.getLogger(NoTransaction.class);

    private final SendWindow nonPersistent;

    /** @param inFlight the most unanswered NON_PERSISTENT sends */
    public NoTransaction(int inFlight) {
        this.nonPersistent = new SendWindow(inFlight);
    }

    @Override
    public boolean isTransacted() {
        return false;
    }

    @Override
    public CompletableFuture<Void> send(RamjetClient client, OutgoingMessage message, int queueChoice) {
        Throwable earlier = nonPersistent.clearFailure();
        if (earlier != null) {
            return CompletableFuture.failedFuture(earlier);
        }
        CompletableFuture<Void> send = client.send(message, queueChoice);
        if (!message.persistent()) {
            nonPersistent.add(send);
        }
        return send;
    }

    @Override
    public boolean confirmsLater(OutgoingMessage message) {
        return !message.persistent();
    }

    @Override
    public boolean consumed(Delivery delivery) {
        return false;
    }

    @Override
    public boolean holdsConsumed() {
        return false;
    }

    @Override
    public List<MessagePosition> consumedFrom(ConsumerInfo attachment) {
        return List.of();
    }

    @Override
    public void commit() throws JMSException {
        throw new IllegalStateException("the session is not transacted");
    }

    @Override
    public void rollback() throws JMSException {
        throw new IllegalStateException("the session is not transacted");
    }

    @Override
    public void close() {
        Throwable failed = nonPersistent.awaitAll();
        if (failed != null) {
            LOG.warn("a NON_PERSISTENT send of the closing session failed: {}", failed.toString());
        }
    }
}
