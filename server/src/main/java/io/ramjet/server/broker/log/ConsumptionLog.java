package io.ramjet.server.broker.log;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.record.ConsumptionRecordDescriptor;
import io.ramjet.server.broker.record.QueuePosition;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.storage.MessageStore;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes acknowledgements, durable subscription changes and destination changes as records in
 * the CommitLog, after they were applied in memory (so a snapshot taken in between holds them
 * and their replay finds them done). Each future completes when the record is durable, except a
 * lazy acknowledgement's and a queue's subscription's, which complete once the record is written
 * (a later flush, or the next durable record, takes it to the disk). Non-durable subscriptions are
 * not logged: they do not outlive the broker. Thread-safe.
 */
public final class ConsumptionLog {

    private final MessageStore store;

    public ConsumptionLog(MessageStore store) {
        this.store = store;
    }

    /** One ACK record for all the positions, durable when the future completes. */
    public CompletableFuture<Void> acked(Subscription subscription, List<Delivery> positions) {
        return acked(subscription, positions, true);
    }

    /** One ACK record for all the positions, written (not yet durable) when the future completes. */
    public CompletableFuture<Void> ackedLazily(Subscription subscription, List<Delivery> positions) {
        return acked(subscription, positions, false);
    }

    private CompletableFuture<Void> acked(Subscription subscription, List<Delivery> positions, boolean durable) {
        if (!subscription.key().kind().durable() || positions.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return append(ConsumptionRecordDescriptor.ack(subscription.key().toRecord(),
                positions.stream().map(d -> new QueuePosition(d.queueId(), d.offset())).toList()), durable);
    }

    /**
     * A queue's subscription is written without waiting for the disk: the log is one sequence, so
     * nothing its consumers do is durable before it, and one lost with everything after it is
     * created again at the head of its queues, where it started, by the next consumer.
     */
    public CompletableFuture<Void> subscribed(Subscription subscription, long[] startOffsets) {
        SubscriptionKind kind = subscription.key().kind();
        if (!kind.durable()) {
            return CompletableFuture.completedFuture(null);
        }
        return subscribed(subscription, startOffsets, kind != SubscriptionKind.QUEUE);
    }

    /**
     * A durable subscription's record, written without waiting for the disk, for a caller that
     * appends a forced record after it and answers once that is durable: the log is one sequence,
     * so the subscription is durable then too ({@link DeliveryMarks#started}: its first bounds).
     */
    public CompletableFuture<Void> subscribedBeforeForce(Subscription subscription, long[] startOffsets) {
        return subscribed(subscription, startOffsets, false);
    }

    private CompletableFuture<Void> subscribed(Subscription subscription, long[] startOffsets, boolean durable) {
        return append(ConsumptionRecordDescriptor.subscribe(subscription.key().toRecord(), subscription.selector(),
                subscription.noLocal(), startOffsets), durable);
    }

    public CompletableFuture<Void> unsubscribed(Subscription subscription) {
        return append(ConsumptionRecordDescriptor.unsubscribe(subscription.key().toRecord()));
    }

    public CompletableFuture<Void> destinationCreated(Destination destination) {
        return destinationCreated(destination, true);
    }

    /**
     * A destination created on first use is written without waiting for the disk, as a queue's
     * subscription is: the log is one sequence, so the message (or subscription) that created it
     * is not durable before it, and one lost with everything after it held nothing durable and is
     * created again by its next use. So a new queue's first persistent message waits for one
     * flush, not two.
     */
    public CompletableFuture<Void> destinationCreatedOnUse(Destination destination) {
        return destinationCreated(destination, false);
    }

    private CompletableFuture<Void> destinationCreated(Destination destination, boolean durable) {
        return append(ConsumptionRecordDescriptor.createDestination(destination.name(), destination.kind(),
                destination.queueCount()), durable);
    }

    public CompletableFuture<Void> destinationDeleted(Destination destination) {
        return append(ConsumptionRecordDescriptor.deleteDestination(destination.name(), destination.kind()));
    }

    private CompletableFuture<Void> append(MessageRecord record) {
        return append(record, true);
    }

    private CompletableFuture<Void> append(MessageRecord record, boolean durable) {
        return store.append(record, durable).thenApply(result -> null);
    }
}
