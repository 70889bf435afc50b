package io.ramjet.provider.jms;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ClientOptions;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.error.JmsErrors;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acknowledgements of one AUTO or DUPS_OK session, coalesced: each consumed message joins a
 * batch, sent as one ACK request per consumer attachment when {@code batch} messages wait or
 * {@code batchMillis} after the first, whichever comes first, and never waited for (as Artemis's
 * default {@code blockOnAcknowledge=false}), and answered by the broker before they are durable
 * ({@link RamjetClient#lazyAck}). AUTO ({@code ackBatch}, {@code ackBatchMillis})
 * also sends its batch as soon as the consumer has nothing more ready ({@link #caughtUp}), so
 * acks lag only while a backlog is being taken; DUPS_OK ({@code dupsOkBatch},
 * {@code dupsOkMillis}, Artemis's {@code dupsOKBatchSize}) waits for its count or its time. At
 * most {@code acksInFlight} ACK requests are unanswered at a time; beyond that sending waits.
 * The options are URL options ({@link ClientOptions}).
 *
 * <p>What this means after a failure: a client that crashes or loses its connection may get the
 * messages of its last unsent batch (at most {@code ackBatch} or {@code dupsOkBatch}) again,
 * with {@code JMSRedelivered=true} and the delivery counted; JMS allows that for DUPS_OK, and
 * for AUTO Artemis does the same by default.
 *
 * <p>A failed ack is logged and told to the next {@link #awaitSent}, and to {@code onFailure}
 * (the connection's exception listener) unless it failed because the delivery was lost with a
 * broker restart or a lost connection, which the connection has come through. The message it was
 * for is not lost: the broker still holds it as delivered, and this keeps its position
 * ({@link #takeFailed}) for the consumer's detach to give it back with the delivery counted (so
 * {@code JMSRedelivered=true}); a broker that lost the client, or whose visibility timeout passes,
 * counts it too. {@link #awaitSent} is called before the consumer detaches, on recover and on
 * close, so an ack still on its way is never overtaken by the release of what it acknowledges.
 * Thread-safe.
 */
final class AckSender {

    private static final Logger LOG = LoggerFactory.getLogger(AckSender.class);

    private final RamjetClient client;
    private final boolean flushWhenCaughtUp;
    private final Consumer<JMSException> onFailure;
    private final Semaphore inFlight;
    private final Set<CompletableFuture<Void>> unanswered = ConcurrentHashMap.newKeySet();
    private final int batchLimit;
    private final ConnectionTimer timer;
    private final long batchMillis;
    private final Map<ConsumerInfo, List<MessagePosition>> batch = new LinkedHashMap<>();
    /** Held by the one flush under way, from taking the batch until its acks are registered. */
    private final Object sending = new Object();
    /** Per attachment, the messages whose ack failed while the broker still held them: seen, not acknowledged. */
    private final Map<ConsumerInfo, List<MessagePosition>> failedAcks = new ConcurrentHashMap<>();
    private int batchSize;
    private volatile JMSException failure;

    /**
     * @param dupsOk true for DUPS_OK, false for AUTO
     * @param timer  where a batch is sent once its time is up
     */
    AckSender(RamjetClient client, boolean dupsOk, ClientOptions options, ConnectionTimer timer,
              Consumer<JMSException> onFailure) {
        this.inFlight = new Semaphore(options.acksInFlight());
        this.batchLimit = dupsOk ? options.dupsOkBatch() : options.ackBatch();
        this.timer = timer;
        this.batchMillis = dupsOk ? options.dupsOkMillis() : options.ackBatchMillis();
        this.flushWhenCaughtUp = !dupsOk;
        this.client = client;
        this.onFailure = onFailure;
    }

    /** Acknowledges a message the application consumed, without waiting for the broker. */
    void ack(Delivery delivery) throws JMSException {
        boolean first;
        boolean full;
        synchronized (batch) {
            first = batchSize == 0;
            batch.computeIfAbsent(delivery.consumer(), c -> new ArrayList<>()).add(delivery.position());
            full = ++batchSize >= batchLimit;
        }
        if (full) {
            flush();
        } else if (first) {
            timer.schedule(this::flushQuietly, batchMillis);
        }
    }

    /** A consumer of the session has nothing more ready: an AUTO batch goes out now. */
    void caughtUp() throws JMSException {
        if (flushWhenCaughtUp) {
            flush();
        }
    }

    /** Sends what the batch holds now. */
    void flush() throws JMSException {
        // one flush at a time: an awaitSent that finds the batch empty while another thread is
        // still sending what it took would not wait for those acks, nor see them fail
        synchronized (sending) {
            Map<ConsumerInfo, List<MessagePosition>> due;
            synchronized (batch) {
                if (batchSize == 0) {
                    return;
                }
                due = new LinkedHashMap<>(batch);
                batch.clear();
                batchSize = 0;
            }
            for (Map.Entry<ConsumerInfo, List<MessagePosition>> e : due.entrySet()) {
                send(e.getKey(), e.getValue());
            }
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (JMSException e) {
            LOG.debug("a timed acknowledgement flush was interrupted; the next flush sends the batch", e);
        }
    }

    private void send(ConsumerInfo consumer, List<MessagePosition> positions) throws JMSException {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while waiting to send an acknowledgement");
        }
        // what awaitSent waits for is the stage that records the outcome, so a failure is known by then
        CompletableFuture<Void> settled = client.lazyAck(consumer, positions).handle((done, f) -> {
            inFlight.release();
            if (f != null) {
                failed(consumer, positions, f);
            }
            return null;
        });
        unanswered.add(settled);
        settled.whenComplete((done, f) -> unanswered.remove(settled));
    }

    private void failed(ConsumerInfo consumer, List<MessagePosition> positions, Throwable f) {
        JMSException jms = JmsErrors.toJms(f);
        failure = jms;
        LOG.warn("acknowledgement of {} message(s) of consumer {} failed; the broker redelivers them",
                positions.size(), consumer.consumerId(), jms);
        if (ClientException.of(f).reason() != ClientException.Reason.NOT_HELD) {
            failedAcks.merge(consumer, List.copyOf(positions), (a, b) -> {
                List<MessagePosition> both = new ArrayList<>(a);
                both.addAll(b);
                return both;
            });
            onFailure.accept(jms);
        }
    }

    /**
     * Takes the positions of {@code attachment} whose ack failed while the broker still held
     * them: the application saw them, so a detach must give them back counted, never as unseen.
     */
    List<MessagePosition> takeFailed(ConsumerInfo attachment) {
        List<MessagePosition> failed = failedAcks.remove(attachment);
        return failed == null ? List.of() : failed;
    }

    /**
     * Sends the batch and waits until every ack sent so far is answered; throws the failure of
     * an ack that failed since the last call, if any.
     */
    void awaitSent() throws JMSException {
        flush();
        List<CompletableFuture<Void>> pending = List.copyOf(unanswered);
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while waiting for acknowledgements");
        } catch (java.util.concurrent.ExecutionException e) {
            // reported below through the recorded failure
        }
        JMSException failed = failure;
        if (failed != null) {
            failure = null;
            throw failed;
        }
    }
}
