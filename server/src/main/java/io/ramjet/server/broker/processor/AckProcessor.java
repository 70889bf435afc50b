package io.ramjet.server.broker.processor;

import io.ramjet.model.MessagePosition;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.ReleaseBatchRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.delivery.Acknowledgements;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.QueueCursor;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * ACK, LAZY_ACK and RELEASE_BATCH: a consumer ends deliveries, acknowledging messages for good (an ACK
 * is answered once durable, a LAZY_ACK of an AUTO or DUPS_OK session once written, so that a
 * crash may bring its messages back once, redelivered; NON_PERSISTENT messages' acknowledgements
 * are not logged at all, since a crash drops those messages) or making them visible again, with
 * or without counting the delivery. Both take only messages in flight to the named consumer,
 * and only over the connection it attached with: anything else is refused with DELIVERY_NOT_HELD
 * and left alone, so a stale, misdirected or hostile request cannot delete or release what
 * another consumer holds.
 */
public final class AckProcessor {

    private final SubscriptionTable subscriptions;
    private final Acknowledgements acknowledgements;
    private final HeldPulls heldPulls;
    private final ConsumerRegistry consumers;

    public AckProcessor(SubscriptionTable subscriptions, Acknowledgements acknowledgements, HeldPulls heldPulls,
                        ConsumerRegistry consumers) {
        this.subscriptions = subscriptions;
        this.acknowledgements = acknowledgements;
        this.heldPulls = heldPulls;
        this.consumers = consumers;
    }

    /** ACK: answered once the acknowledgement is durable. */
    public CompletionStage<Frame> ack(RemotingConnection connection, Frame request) {
        return ack(connection, request, false);
    }

    /** LAZY_ACK: answered once the acknowledgement is applied and written, before it is durable. */
    public CompletionStage<Frame> lazyAck(RemotingConnection connection, Frame request) {
        return ack(connection, request, true);
    }

    private CompletionStage<Frame> ack(RemotingConnection connection, Frame request, boolean lazy) {
        AckRequest ack = request.header(AckRequest.class);
        checkAttached(ack.consumerId(), connection, ack.messages().size());
        Subscription subscription = find(SubscriptionRefs.keyOf(ack.subscription()));
        List<Delivery> positions = new ArrayList<>(ack.messages().size());
        List<Delivery> logged = new ArrayList<>(ack.messages().size());
        for (MessagePosition p : ack.messages()) {
            Delivery d = new Delivery(p.queueId(), p.queueOffset(), 0);
            positions.add(d);
            if (!consumers.takeNonPersistent(ack.consumerId(), p.queueId(), p.queueOffset())) {
                logged.add(d);
            }
        }
        return acknowledgements.ack(subscription, ack.consumerId(), positions, logged, lazy).thenApply(notHeld -> {
            consumers.settled(ack.consumerId(), positions.size() - notHeld.size());
            if (!notHeld.isEmpty()) {
                throw new CompletionException(notHeld(ack.consumerId(), notHeld.size(), positions.size()));
            }
            return request.reply(null);
        });
    }

    /**
     * RELEASE_BATCH: the messages of each queue go back under one hold of its cursor, so a pull
     * finds all of them visible or none, and takes them in their queue order.
     */
    public Frame release(RemotingConnection connection, Frame request) {
        ReleaseBatchRequest release = request.header(ReleaseBatchRequest.class);
        int named = release.messages().size();
        checkAttached(release.consumerId(), connection, named);
        SubscriptionKey key = SubscriptionRefs.keyOf(release.subscription());
        Subscription subscription = find(key);
        Map<Integer, List<Long>> byQueue = new LinkedHashMap<>();
        for (MessagePosition p : release.messages()) {
            consumers.takeNonPersistent(release.consumerId(), p.queueId(), p.queueOffset());
            byQueue.computeIfAbsent(p.queueId(), q -> new ArrayList<>()).add(p.queueOffset());
        }
        int released = 0;
        for (Map.Entry<Integer, List<Long>> queue : byQueue.entrySet()) {
            int queueId = queue.getKey();
            if (queueId >= 0 && queueId < subscription.queueCount()) {
                released += subscription.withCursor(queueId, cursor -> releaseAll(cursor, queue.getValue(),
                        release.consumerId(), release.countDelivery()));
            }
        }
        consumers.settled(release.consumerId(), released);
        if (released > 0) {
            heldPulls.wake(key.storageName(), subscription);
        }
        if (released < named) {
            throw notHeld(release.consumerId(), named - released, named);
        }
        return request.reply(null);
    }

    private static int releaseAll(QueueCursor cursor, List<Long> offsets, long consumer, boolean countDelivery) {
        int released = 0;
        for (long offset : offsets) {
            if (cursor.release(offset, consumer, countDelivery) >= 0) {
                released++;
            }
        }
        return released;
    }

    private void checkAttached(long consumer, RemotingConnection connection, int messages) {
        if (!consumers.attachedOver(consumer, new ConnectionSession(connection))) {
            throw notHeld(consumer, messages, messages);
        }
    }

    private static BrokerException notHeld(long consumer, int notHeld, int named) {
        return new BrokerException(Refusal.NOT_HELD, notHeld + " of " + named
                + " message(s) named are not delivered to consumer " + consumer + " over this connection (the"
                + " delivery was lost with a broker restart or a lost connection): they were left alone and come"
                + " back redelivered");
    }

    private Subscription find(SubscriptionKey key) {
        return subscriptions.find(key).orElseThrow(() -> new BrokerException(Refusal.NOT_FOUND,
                "no subscription '" + key.name() + "' of " + key.destination()));
    }
}
