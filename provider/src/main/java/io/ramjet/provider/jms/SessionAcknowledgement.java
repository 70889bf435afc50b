package io.ramjet.provider.jms;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.jms.transaction.TransactionContext;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * How one session settles the messages its application consumed, by its acknowledgement mode:
 * its {@link TransactionContext} first (a transaction holds what it consumed), else CLIENT keeps
 * each one ({@link ClientAcknowledgements}) until {@code acknowledge} acks them all or
 * {@code recover} or close releases them with the delivery counted, ahead of anything
 * prefetched; AUTO and DUPS_OK ack each one through an {@link AckSender}. Also what stays the
 * session's when a consumer detaches.
 *
 * <p>Thread-safe: the application's threads, the session thread (listeners), a closing consumer
 * and the feeds (a lost or detached attachment) call it. Called by {@link RamjetSession} and,
 * through {@link RamjetSession#acknowledgement()}, by its consumers' pipeline and dispatch.
 */
final class SessionAcknowledgement {

    private final RamjetConnection connection;
    private final int acknowledgeMode;
    private final TransactionContext transaction;
    private final SessionThread thread;
    /** recover() was called in AUTO or DUPS_OK mode from the listener: its message is to be redelivered. */
    private volatile boolean recoverRequested;
    /** CLIENT_ACKNOWLEDGE: the consumed messages an acknowledge() is to settle. */
    private final ClientAcknowledgements unacknowledged = new ClientAcknowledgements();
    /** AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE: acknowledgements sent as messages are consumed. */
    private final AckSender acks;

    SessionAcknowledgement(RamjetConnection connection, int acknowledgeMode, TransactionContext transaction,
                           SessionThread thread) {
        this.connection = connection;
        this.acknowledgeMode = acknowledgeMode;
        this.transaction = transaction;
        this.thread = thread;
        this.acks = new AckSender(connection.client(), acknowledgeMode == Session.DUPS_OK_ACKNOWLEDGE,
                connection.info().options(), connection.timer(), connection::onAsyncFailure);
    }

    boolean isClientAcknowledge() {
        return acknowledgeMode == Session.CLIENT_ACKNOWLEDGE;
    }

    /** A message the application has been given stays unacknowledged until acknowledge or commit. */
    boolean keepsConsumedMessages() {
        return isClientAcknowledge() || transaction.holdsConsumed();
    }

    /** The application has been given this message (receive returned it, or its listener returned). */
    void consumed(Delivery delivery) throws JMSException {
        if (transaction.consumed(delivery)) {
            return;
        }
        if (isClientAcknowledge()) {
            unacknowledged.consumed(delivery);
        } else {
            acks.ack(delivery);
        }
    }

    /** A consumer of this session has handed over everything it had ready: AUTO acks go out now. */
    void caughtUp() throws JMSException {
        if (!keepsConsumedMessages()) {
            acks.caughtUp();
        }
    }

    /** Whether the listener that just returned called recover(); clears the request. */
    boolean takeRecoverRequest() {
        boolean requested = recoverRequested;
        recoverRequested = false;
        return requested;
    }

    /** Sends the DUPS_OK batch and waits for every AUTO or DUPS_OK ack on its way; throws one that failed. */
    void awaitAcknowledgements() throws JMSException {
        acks.awaitSent();
    }

    /**
     * CLIENT_ACKNOWLEDGE: acknowledges every message the session has consumed. It throws once for
     * consumed messages whose attachment was lost since the last call (see {@link #attachmentLost}),
     * after acknowledging the others. A consumer whose broker is found gone drops its prefetched
     * messages now ({@code brokerGone}), so that the application is not handed more that no
     * acknowledge can settle (its feed sees the loss at its next pull).
     */
    void acknowledge(Consumer<ConsumerInfo> brokerGone) throws JMSException {
        unacknowledged.acknowledge(connection.client(), brokerGone);
    }

    /**
     * A consumer of this session lost {@code attachment} (its broker gone): the broker gives the
     * messages delivered through it to the subscription again, flagged redelivered, so the
     * consumed ones are no longer this session's to acknowledge; acknowledge() reports them once.
     */
    void attachmentLost(ConsumerInfo attachment) {
        unacknowledged.attachmentLost(attachment);
    }

    /**
     * Session.recover outside a transaction: in AUTO or DUPS_OK only the message a listener is
     * handling is unacknowledged, to be redelivered once it returns; in CLIENT every consumed
     * message is redelivered ahead of what {@code consumers} prefetched.
     */
    void recover(SessionConsumers consumers) throws JMSException {
        acks.awaitSent();
        if (!isClientAcknowledge()) {
            // AUTO, DUPS_OK: only the message a listener is handling is unacknowledged (section 6.2.11)
            if (thread.isCurrent()) {
                recoverRequested = true;
            }
            return;
        }
        List<RamjetMessageConsumer> paused = consumers.all();
        List<Delivery> unseen = new ArrayList<>();
        try {
            for (RamjetMessageConsumer consumer : paused) {
                unseen.addAll(consumer.pause());
            }
            redeliverAhead(unseen);
        } finally {
            for (RamjetMessageConsumer consumer : paused) {
                consumer.resume();
            }
        }
    }

    /**
     * With every consumer's intake paused: the consumed messages are released with the delivery
     * counted and the prefetched ones the application never saw without, all answered before
     * the intake resumes, so the brokers offer the consumed ones again first, in their order
     * (offset order within each message queue), with {@code JMSRedelivered=true}.
     */
    void redeliverAhead(List<Delivery> unseen) throws JMSException {
        List<Delivery> toRelease = unacknowledged.takeAll();
        // the consumed ones first: an attachment's releases are applied in the order asked
        JmsErrors.await(CompletableFuture.allOf(connection.client().release(toRelease, true),
                connection.client().release(unseen, false)));
    }

    /** The session has closed: what is still unacknowledged is no longer its to settle. */
    void forget() {
        unacknowledged.takeAll();
    }

    /**
     * A consumer has closed: the broker drops it, giving back uncounted what the application
     * never saw. The messages of it that this session consumed and has still to acknowledge,
     * commit or roll back stay delivered to it at the broker, for the session to settle.
     */
    CompletableFuture<Void> detach(ConsumerInfo attachment, List<MessagePosition> inHand) {
        List<MessagePosition> held = new ArrayList<>(transaction.consumedFrom(attachment));
        held.addAll(inHand);
        unacknowledged.heldBy(attachment, held);
        List<MessagePosition> ackFailed = acks.takeFailed(attachment);
        CompletableFuture<Void> counted = ackFailed.isEmpty() ? CompletableFuture.completedFuture(null)
                : connection.client().release(attachment, ackFailed, true);
        return counted.handle((done, failure) -> null)
                .thenCompose(released -> connection.client().closeConsumer(attachment, held));
    }
}
