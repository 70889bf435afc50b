package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.DeleteSubscriptionRequest;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.command.SubscribeResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.durability.ConsumptionLog;
import io.ramjet.server.broker.durability.DeliveryMarks;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionConflictException;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/**
 * SUBSCRIBE, CLOSE_CONSUMER and DELETE_SUBSCRIPTION: consumers attach to and detach from
 * subscriptions under the Jakarta Messaging rules of {@link SubscriptionTable}. A queue's
 * subscription starts at the head of its queues, a topic's (durable or not) at their tail.
 */
public final class SubscriptionProcessor {

    private final MessageStore store;
    private final DestinationResolver destinations;
    private final SubscriptionTable subscriptions;
    private final ConsumerRegistry consumers;
    private final ConsumerDetacher detacher;
    private final ConsumptionLog log;
    private final DeliveryMarks marks;
    private final TemporaryDestinations temporaries;

    public SubscriptionProcessor(MessageStore store, DestinationResolver destinations, SubscriptionTable subscriptions,
                                 ConsumerRegistry consumers, ConsumerDetacher detacher, ConsumptionLog log,
                                 DeliveryMarks marks, TemporaryDestinations temporaries) {
        this.temporaries = temporaries;
        this.log = log;
        this.marks = marks;
        this.store = store;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.consumers = consumers;
        this.detacher = detacher;
    }

    /** Answered once a new durable subscription is durable. */
    public CompletionStage<Frame> subscribe(RemotingConnection connection, Frame request)
            throws RemotingCommandException {
        SubscribeRequest subscribe = request.header(SubscribeRequest.class);
        SubscriptionKey key = SubscriptionRefs.keyOf(subscribe.subscription());
        Destination destination = destinations.resolve(key.destinationKind(), key.destination());
        if (!temporaries.mayConsume(destination, connection)) {
            throw new RemotingCommandException(ErrorStatus.SUBSCRIPTION_CONFLICT, "temporary destination '"
                    + destination.name() + "' belongs to another connection");
        }
        AtomicReference<long[]> starts = new AtomicReference<>();
        try {
            SubscriptionTable.Change change = subscriptions.subscribe(key, subscribe.selector(), subscribe.noLocal(),
                    subscribe.consumerId(), k -> {
                        starts.set(startOffsets(destination, k.kind()));
                        return starts.get();
                    });
            long[] masks = subscribe.tagMasks().stream().mapToLong(Long::longValue).toArray();
            consumers.attached(subscribe.consumerId(), connection, key, masks);
            Subscription s = change.subscription();
            Frame reply = request.reply(new SubscribeResponse(s.queueCount()));
            if (change.created()) {
                marks.reset(key);
            }
            if (!change.created()) {
                return CompletableFuture.completedFuture(reply);
            }
            return log.subscribed(s, starts.get()).thenApply(done -> reply);
        } catch (SubscriptionConflictException e) {
            throw new RemotingCommandException(ErrorStatus.SUBSCRIPTION_CONFLICT, e.getMessage());
        }
    }

    private long[] startOffsets(Destination destination, SubscriptionKind kind) {
        long[] offsets = new long[destination.queueCount()];
        for (int q = 0; q < offsets.length; q++) {
            offsets[q] = kind == SubscriptionKind.QUEUE
                    ? store.minQueueOffset(destination.storageName(), q)
                    : store.maxQueueOffset(destination.storageName(), q);
        }
        return offsets;
    }

    public Frame closeConsumer(RemotingConnection connection, Frame request) {
        CloseConsumerRequest close = request.header(CloseConsumerRequest.class);
        consumers.detached(close.consumerId());
        detacher.detach(close.consumerId(), SubscriptionRefs.keyOf(close.subscription()));
        return request.reply(null);
    }

    /** Answered once the deletion is durable. */
    public CompletionStage<Frame> deleteSubscription(RemotingConnection connection, Frame request)
            throws RemotingCommandException {
        DeleteSubscriptionRequest delete = request.header(DeleteSubscriptionRequest.class);
        Subscription deleted;
        try {
            deleted = subscriptions.deleteDurable(delete.clientId(), delete.name()).orElseThrow(() ->
                    new RemotingCommandException(ErrorStatus.NOT_FOUND, "no durable subscription '" + delete.name()
                            + "' of client '" + delete.clientId() + "'"));
        } catch (SubscriptionConflictException e) {
            throw new RemotingCommandException(ErrorStatus.SUBSCRIPTION_CONFLICT, e.getMessage());
        }
        return log.unsubscribed(deleted).thenApply(done -> request.reply(null));
    }
}
