package io.ramjet.provider.jms.transaction;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.RamjetClient;
import jakarta.jms.JMSException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * How a session's sends and consumed messages take part in a transaction, so that the session
 * never asks whether it is transacted: {@link NoTransaction}, {@link LocalTransaction} for a
 * transacted session, {@link XaSessionTransaction} for an XA session.
 */
public interface TransactionContext {

    /** {@code Session.getTransacted()}. */
    boolean isTransacted();

    /** Sends one message, inside the current transaction if there is one. */
    CompletableFuture<Void> send(RamjetClient client, OutgoingMessage message, int queueChoice);

    /**
     * Whether a synchronous send of {@code message} may return before the broker answers: in a
     * transaction, whose end waits for every answer and a failed send dooms it (its commit rolls
     * back and says so); outside one, for a NON_PERSISTENT message, as Artemis does by default
     * (a failure is thrown by the session's next send, and logged at close).
     */
    boolean confirmsLater(OutgoingMessage message);

    /**
     * The application has been given this message: true when the transaction holds its
     * acknowledgement; false when the session acknowledges it as its acknowledgement mode says.
     */
    boolean consumed(Delivery delivery);

    /** Whether {@link #consumed} would hold a message now (a listener that throws does not get it again). */
    boolean holdsConsumed();

    /** What the current transaction consumed through {@code attachment} and still holds. */
    List<MessagePosition> consumedFrom(ConsumerInfo attachment);

    /** {@code Session.commit()}. */
    void commit() throws JMSException;

    /** {@code Session.rollback()}. */
    void rollback() throws JMSException;

    /** The session closes: what is still open rolls back. */
    void close() throws JMSException;
}
