package io.ramjet.server.broker.processor;

import io.ramjet.model.MessagePosition;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.DeleteSubscriptionRequest;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.command.SubscribeResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.selector.SelectorSyntaxException;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.server.broker.session.ClientIdClaims;
import io.ramjet.server.broker.session.TemporaryDestinations;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionConflictException;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/**
 * SUBSCRIBE, CLOSE_CONSUMER and DELETE_SUBSCRIPTION: consumers attach to and detach from
 * subscriptions under the Jakarta Messaging rules of {@link SubscriptionTable}. A queue's
 * subscription starts at the head of its queues, a topic's (durable or not) at their tail.
 *
 * <p>Each consumer's selector is compiled here, once, into the {@link ConsumerSelector} its
 * pulls filter with; a selector that does not parse is refused with BAD_REQUEST before anything
 * changes. On a topic the selector is a term of the subscription (a durable one keeps it, and
 * another selector replaces it); a queue's consumers share one subscription and each keeps its
 * own selector.
 *
 * <p>A durable or shared subscription named under a client id is attached only over the connection
 * holding that client id (as the JMS API attaches it): another connection is refused, whatever
 * its rights.
 *
 * <p>Attaching a consumer needs the right to consume from the destination (but for the
 * connection's own temporary destination, which only it may consume), and creating a
 * durable subscription the right to create one on its topic. Deleting a durable subscription
 * needs both the client id (held by this connection) and the right to delete durable
 * subscriptions of its topic; one created without a client id needs the right alone.
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
    private final ClientIdClaims clientIds;
    private final Access access;

    public SubscriptionProcessor(MessageStore store, DestinationResolver destinations, SubscriptionTable subscriptions,
                                 ConsumerRegistry consumers, ConsumerDetacher detacher, ConsumptionLog log,
                                 DeliveryMarks marks, TemporaryDestinations temporaries, ClientIdClaims clientIds,
                                 Access access) {
        this.temporaries = temporaries;
        this.clientIds = clientIds;
        this.access = access;
        this.log = log;
        this.marks = marks;
        this.store = store;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.consumers = consumers;
        this.detacher = detacher;
    }

    /**
     * Answered once a new durable subscription is durable, with a logged bound ahead of its start
     * ({@link DeliveryMarks#started}), a queue's once written ({@link ConsumptionLog#subscribed}).
     */
    public CompletionStage<Frame> subscribe(RemotingConnection connection, Frame request) {
        SubscribeRequest subscribe = request.header(SubscribeRequest.class);
        SubscriptionKey key = SubscriptionRefs.keyOf(subscribe.subscription());
        String subscriptionSelector = key.kind() == SubscriptionKind.QUEUE ? null : subscribe.selector();
        checkClientId(connection, key);
        boolean ownTemporary = destinations.table().find(key.destinationKind(), key.destination())
                .filter(Destination::temporary).map(d -> checkOwnTemporary(connection, d)).orElse(false);
        checkAccess(connection, key, subscriptionSelector, subscribe.noLocal(), ownTemporary);
        Destination destination = destinations.resolve(key.destinationKind(), key.destination());
        if (destination.temporary()) {
            checkOwnTemporary(connection, destination);
        }
        ConsumerSelector selector = compile(subscribe.selector());
        AtomicReference<long[]> starts = new AtomicReference<>();
        try {
            SubscriptionTable.Change change = subscriptions.subscribe(key, subscriptionSelector, subscribe.noLocal(),
                    subscribe.consumerId(), k -> {
                        starts.set(startOffsets(destination, k.kind()));
                        return starts.get();
                    });
            consumers.attached(subscribe.consumerId(), new ConnectionSession(connection), key, selector);
            Subscription s = change.subscription();
            Frame reply = request.reply(new SubscribeResponse(s.queueCount()));
            if (!change.created()) {
                return CompletableFuture.completedFuture(reply);
            }
            marks.reset(key);
            if (key.kind() == SubscriptionKind.QUEUE || !key.kind().durable()) {
                return log.subscribed(s, starts.get()).thenApply(done -> reply);
            }
            // one force makes the subscription and its first bounds durable: its first delivery waits for none
            CompletableFuture<Void> written = log.subscribedBeforeForce(s, starts.get());
            return CompletableFuture.allOf(written, marks.started(s, starts.get())).thenApply(done -> reply);
        } catch (SubscriptionConflictException e) {
            throw new BrokerException(Refusal.SUBSCRIPTION_CONFLICT, e.getMessage());
        }
    }

    private void checkClientId(RemotingConnection connection, SubscriptionKey key) {
        boolean named = key.kind() == SubscriptionKind.DURABLE || key.kind() == SubscriptionKind.SHARED
                || key.kind() == SubscriptionKind.SHARED_DURABLE;
        if (named && key.clientId() != null && !key.clientId().isEmpty()
                && !clientIds.heldBy(key.clientId(), new ConnectionSession(connection))) {
            throw new BrokerException(Refusal.NOT_AUTHORIZED, "client id '" + key.clientId()
                    + "' is not held by this connection: only its holder may attach to its subscription '"
                    + key.name() + "'");
        }
    }

    /**
     * The right to consume; for a durable subscription that does not exist, the right to create
     * one, and for one that exists with other terms (which the new ones replace), the rights to
     * delete it and create one.
     */
    private void checkAccess(RemotingConnection connection, SubscriptionKey key, String selector, boolean noLocal,
                             boolean ownTemporary) {
        if (!ownTemporary) {
            access.check(connection, Operation.CONSUME, key.destination());
        }
        if (key.kind() != SubscriptionKind.QUEUE && key.kind().durable()) {
            Optional<Subscription> existing = subscriptions.find(key);
            if (existing.isPresent() && !existing.get().sameTerms(selector, noLocal)) {
                access.check(connection, Operation.DELETE_DURABLE_SUBSCRIPTION, key.destination());
            }
            if (existing.isEmpty() || !existing.get().sameTerms(selector, noLocal)) {
                access.check(connection, Operation.CREATE_DURABLE_SUBSCRIPTION, key.destination());
            }
        }
        access.checkCreatedByUse(connection, destinations.table(), key.destinationKind(), key.destination());
    }

    /**
     * Only the connection that created a temporary destination consumes from it; returns true.
     *
     * @throws BrokerException SUBSCRIPTION_CONFLICT for another connection, whatever its rights
     */
    private boolean checkOwnTemporary(RemotingConnection connection, Destination temporary) {
        if (!temporaries.mayConsume(temporary, new ConnectionSession(connection))) {
            throw new BrokerException(Refusal.SUBSCRIPTION_CONFLICT, "temporary destination '"
                    + temporary.name() + "' belongs to another connection");
        }
        return true;
    }

    private static ConsumerSelector compile(String selector) {
        try {
            return ConsumerSelector.compile(selector);
        } catch (SelectorSyntaxException e) {
            throw new BrokerException(Refusal.BAD_REQUEST, e.getMessage());
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

    /** Only over the connection the consumer attached with; a repeated close does nothing. */
    public Frame closeConsumer(RemotingConnection connection, Frame request) {
        CloseConsumerRequest close = request.header(CloseConsumerRequest.class);
        if (consumers.attachedOver(close.consumerId(), new ConnectionSession(connection))) {
            Map<Integer, Set<Long>> kept = new HashMap<>();
            for (MessagePosition p : close.kept()) {
                kept.computeIfAbsent(p.queueId(), q -> new HashSet<>()).add(p.queueOffset());
            }
            consumers.closed(close.consumerId(), close.kept().size());
            detacher.close(close.consumerId(), SubscriptionRefs.keyOf(close.subscription()), kept);
        }
        return request.reply(null);
    }

    /** Answered once the deletion is durable. */
    public CompletionStage<Frame> deleteSubscription(RemotingConnection connection, Frame request) {
        DeleteSubscriptionRequest delete = request.header(DeleteSubscriptionRequest.class);
        if (delete.clientId() != null && !clientIds.heldBy(delete.clientId(), new ConnectionSession(connection))) {
            throw new BrokerException(Refusal.NOT_AUTHORIZED, "client id '" + delete.clientId()
                    + "' is not held by this connection: only its holder may delete its durable subscriptions");
        }
        Subscription deleted;
        try {
            deleted = subscriptions.deleteDurable(delete.clientId(), delete.name(), s ->
                    access.check(connection, Operation.DELETE_DURABLE_SUBSCRIPTION, s.key().destination()))
                    .orElseThrow(() ->
                    new BrokerException(Refusal.NOT_FOUND, "no durable subscription '" + delete.name()
                            + "' of client '" + delete.clientId() + "'"));
        } catch (SubscriptionConflictException e) {
            throw new BrokerException(Refusal.SUBSCRIPTION_CONFLICT, e.getMessage());
        }
        return log.unsubscribed(deleted).thenApply(done -> request.reply(null));
    }
}
