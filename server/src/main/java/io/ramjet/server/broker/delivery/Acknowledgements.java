package io.ramjet.server.broker.delivery;

import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Acknowledges messages of a subscription: in its cursors at once, so they are never offered
 * again, then in the CommitLog, so they never come back after a restart. A consumer's
 * acknowledgement takes only what is in flight to it; the broker's own (a message gone to
 * retention or expired, a copy moved to the dead-letter queue) takes the offset whatever its
 * state. An acknowledgement that frees a message group (its owner left or closed it) wakes the
 * pulls held on the subscription, which may take the group now. Thread-safe.
 */
public final class Acknowledgements {

    private final ConsumptionLog log;
    private final HeldPulls heldPulls;

    public Acknowledgements(ConsumptionLog log, HeldPulls heldPulls) {
        this.log = log;
        this.heldPulls = heldPulls;
    }

    /**
     * Acknowledges the given positions that are in flight to {@code consumer}, in one ACK record
     * whatever their number; the future completes, once those acknowledgements are durable (or
     * only written, when {@code lazy}: a crash may then bring them back once, redelivered), with
     * the positions that were not (acknowledged already, delivered to another consumer, never
     * delivered, or a queue id the subscription does not have): those are left as they were.
     * Only the acknowledgements of {@code logged} (the PERSISTENT messages among {@code positions})
     * go to the CommitLog: the others' are in memory only (a NON_PERSISTENT message is not
     * delivered after a crash, {@code log.NonPersistentHorizon}).
     */
    public CompletableFuture<List<Delivery>> ack(Subscription subscription, long consumer, List<Delivery> positions,
                                                 List<Delivery> logged, boolean lazy) {
        List<Delivery> acked = new ArrayList<>(positions.size());
        List<Delivery> notHeld = new ArrayList<>();
        boolean[] groupFreed = {false};
        // one trip through the subscription's lock per queue, not per message
        Map<Integer, List<Delivery>> byQueue = new LinkedHashMap<>();
        for (Delivery d : positions) {
            if (d.queueId() >= 0 && d.queueId() < subscription.queueCount()) {
                byQueue.computeIfAbsent(d.queueId(), q -> new ArrayList<>()).add(d);
            } else {
                notHeld.add(d);
            }
        }
        byQueue.forEach((queueId, inQueue) -> subscription.withCursor(queueId, cursor -> {
            for (Delivery d : inQueue) {
                (cursor.ackDelivery(d.offset(), consumer) ? acked : notHeld).add(d);
            }
            groupFreed[0] |= cursor.takeGroupFreed();
            return null;
        }));
        if (groupFreed[0]) {
            heldPulls.wake(subscription.key().storageName(), subscription);
        }
        List<Delivery> toLog = logged.size() == positions.size() ? acked
                : acked.stream().filter(new HashSet<>(logged)::contains).toList();
        return (lazy ? log.ackedLazily(subscription, toLog) : log.acked(subscription, toLog))
                .thenApply(done -> notHeld);
    }

    /** The broker's own acknowledgement of one message, whoever holds it. */
    public void ackOne(Subscription subscription, Delivery delivery) {
        subscription.withCursor(delivery.queueId(), cursor -> cursor.ack(delivery.offset()));
        log.acked(subscription, List.of(delivery));
    }
}
