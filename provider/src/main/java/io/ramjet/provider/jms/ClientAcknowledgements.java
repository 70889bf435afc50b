package io.ramjet.provider.jms;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.error.JmsErrors;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A CLIENT_ACKNOWLEDGE session's consumed messages: each is kept from the moment the
 * application is given it until {@link #acknowledge} acknowledges them all, or a recover or
 * close {@link #takeAll takes them} to release. A message whose attachment was lost is dropped
 * and reported once, at the next acknowledge. Thread-safe: the application's threads, the
 * session thread and a closing consumer call it.
 */
final class ClientAcknowledgements {

    private final Object lock = new Object();
    private final List<Delivery> unacknowledged = new ArrayList<>();
    /** What an acknowledge() has sent and awaits the answer for. Guarded by lock. */
    private List<Delivery> acknowledging = List.of();
    /** Consumed messages dropped with their lost attachment, to report at the next acknowledge(). Guarded by lock. */
    private int lost;

    /** The application has been given {@code delivery}. */
    void consumed(Delivery delivery) {
        synchronized (lock) {
            unacknowledged.add(delivery);
        }
    }

    /**
     * Adds to {@code held} the positions consumed through {@code attachment} and not yet
     * acknowledged, those of an acknowledge still waiting for its answer too: the application
     * saw them.
     */
    void heldBy(ConsumerInfo attachment, List<MessagePosition> held) {
        synchronized (lock) {
            for (List<Delivery> list : List.of(unacknowledged, acknowledging)) {
                for (Delivery d : list) {
                    if (d.consumer().equals(attachment)) {
                        held.add(d.position());
                    }
                }
            }
        }
    }

    /**
     * Acknowledges every message consumed so far, one request per attachment. It throws once for
     * consumed messages whose attachment was lost since the last call (see
     * {@link #attachmentLost}), after acknowledging the others. {@code brokerGone} hears of each
     * attachment whose broker was found gone.
     */
    void acknowledge(RamjetClient client, Consumer<ConsumerInfo> brokerGone) throws JMSException {
        List<Delivery> toAck;
        int lostNow;
        synchronized (lock) {
            toAck = List.copyOf(unacknowledged);
            unacknowledged.clear();
            acknowledging = toAck;
            lostNow = lost;
            lost = 0;
        }
        Map<ConsumerInfo, List<MessagePosition>> byConsumer = new LinkedHashMap<>();
        for (Delivery d : toAck) {
            byConsumer.computeIfAbsent(d.consumer(), c -> new ArrayList<>()).add(d.position());
        }
        Map<ConsumerInfo, CompletableFuture<Void>> acks = new LinkedHashMap<>();
        byConsumer.forEach((consumer, positions) -> acks.put(consumer, client.ack(consumer, positions)));
        try {
            JmsErrors.await(CompletableFuture.allOf(acks.values().toArray(CompletableFuture[]::new)));
        } catch (JMSException e) {
            keepUnsettled(toAck, acks, brokerGone);
            throw e;
        } finally {
            synchronized (lock) {
                acknowledging = List.of();
            }
        }
        if (lostNow > 0) {
            throw new JMSException(lostNow + " consumed message(s) were not acknowledged: the connection to their"
                    + " broker was lost, and the broker delivers them again flagged redelivered");
        }
    }

    /**
     * After a failed acknowledge(): the messages whose acknowledgement failed stay the session's to
     * settle, since the application saw them and they are not known acknowledged, so a recover or
     * close gives them back counted (JMSRedelivered), never as prefetched messages the application
     * did not see. Not those the broker answered it no longer holds, nor those whose broker is gone
     * (a lost connection loses the attachment): the broker delivers them again, flagged.
     */
    private void keepUnsettled(List<Delivery> toAck, Map<ConsumerInfo, CompletableFuture<Void>> acks,
                               Consumer<ConsumerInfo> brokerGone) {
        List<Delivery> unsettled = new ArrayList<>();
        for (Delivery d : toAck) {
            CompletableFuture<Void> ack = acks.get(d.consumer());
            if (ack.isCompletedExceptionally() && ack.handle((done, failure) -> stillHeld(ClientException.of(failure)))
                    .join()) {
                unsettled.add(d);
            }
        }
        synchronized (lock) {
            unacknowledged.addAll(0, unsettled);
            acknowledging = List.of();
        }
        acks.forEach((attachment, ack) -> {
            if (ack.handle((done, failure) -> failure != null && ClientException.of(failure).isBrokerGone()).join()) {
                brokerGone.accept(attachment);
            }
        });
    }

    private static boolean stillHeld(ClientException failure) {
        return failure.reason() != ClientException.Reason.NOT_HELD && !failure.isBrokerGone();
    }

    /**
     * {@code attachment} was lost (its broker gone): the broker gives the messages delivered
     * through it to the subscription again, flagged redelivered, so the consumed ones are no
     * longer the session's to acknowledge; acknowledge() reports them once.
     */
    void attachmentLost(ConsumerInfo attachment) {
        synchronized (lock) {
            int before = unacknowledged.size();
            unacknowledged.removeIf(d -> d.consumer().equals(attachment));
            lost += before - unacknowledged.size();
        }
    }

    /** Every consumed message not yet acknowledged, in the order consumed; none are kept after. */
    List<Delivery> takeAll() {
        synchronized (lock) {
            List<Delivery> all = List.copyOf(unacknowledged);
            unacknowledged.clear();
            return all;
        }
    }
}
