package io.ramjet.provider.jms;

import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.jms.transaction.TransactionContext;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The producers of one session and where their messages go: each destination's message queue
 * is chosen once per session and shared by all its producers, so the session's messages keep
 * their order; a send goes through the session's {@link TransactionContext}.
 *
 * <p>Thread-safe (copy-on-write list, concurrent map): application threads and completion
 * listeners send while others open and close producers. Called by {@link RamjetSession}, and by
 * its producers through {@link RamjetSession#producers()}.
 */
final class SessionProducers {

    private final RamjetSession session;
    private final RamjetConnection connection;
    private final TransactionContext transaction;
    private final List<RamjetMessageProducer> producers = new CopyOnWriteArrayList<>();
    private final Map<RamjetDestination, Integer> queueChoices = new ConcurrentHashMap<>();

    SessionProducers(RamjetSession session, RamjetConnection connection, TransactionContext transaction) {
        this.session = session;
        this.connection = connection;
        this.transaction = transaction;
    }

    RamjetMessageProducer open(Destination destination) throws JMSException {
        session.checkOpen();
        RamjetMessageProducer producer = new RamjetMessageProducer(session, RamjetDestination.from(destination));
        producers.add(producer);
        return producer;
    }

    void removed(RamjetMessageProducer producer) {
        producers.remove(producer);
    }

    /** Closes every producer, as the session closes. */
    void close() throws JMSException {
        for (RamjetMessageProducer producer : producers) {
            producer.close();
        }
    }

    /**
     * Sends one message for a producer of this session, inside its transaction if there is one:
     * a message of a group ({@code groupId} not null) to the queue its group id hashes to, any
     * other to the session's queue for the destination.
     */
    CompletableFuture<Void> send(OutgoingMessage message, RamjetDestination destination, String groupId) {
        int choice = groupId == null ? queueChoice(destination) : GroupQueueChoice.of(groupId);
        return transaction.send(connection.client(), message, choice);
    }

    /**
     * What a synchronous send waits for: the broker's answer, except where the transaction
     * context confirms later (in a transaction, whose end waits for all of them; a NON_PERSISTENT
     * send outside one); a failure already known is still thrown here.
     */
    void awaitSent(CompletableFuture<Void> sending, OutgoingMessage message) throws JMSException {
        if (transaction.confirmsLater(message) && !sending.isCompletedExceptionally()) {
            return;
        }
        JmsErrors.await(sending);
    }

    /**
     * The message queue this session sends to for {@code destination}: chosen once, the next of
     * its connection's {@link QueueChoices} (sessions spread evenly over the destination's queues
     * of all its groups), shared by all its producers, so the session's messages keep their order.
     */
    int queueChoice(RamjetDestination destination) {
        return queueChoices.computeIfAbsent(destination, connection.queueChoices()::next);
    }
}
