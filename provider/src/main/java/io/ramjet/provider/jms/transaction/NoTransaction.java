package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.util.concurrent.CompletableFuture;

/** The context of a session that is not transacted: plain sends, commit and rollback refused. */
public final class NoTransaction implements TransactionContext {

    @Override
    public boolean isTransacted() {
        return false;
    }

    @Override
    public CompletableFuture<Void> send(RamjetClient client, OutgoingMessage message, int queueChoice) {
        return client.send(message, queueChoice);
    }

    @Override
    public boolean confirmsSendsAtEnd() {
        return false;
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
    public void commit() throws JMSException {
        throw new IllegalStateException("the session is not transacted");
    }

    @Override
    public void rollback() throws JMSException {
        throw new IllegalStateException("the session is not transacted");
    }

    @Override
    public void close() {
    }
}
