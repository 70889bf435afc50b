package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.MessagePosition;
import io.ramjet.protocol.command.ReleaseRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.delivery.Acknowledgements;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * ACK, LAZY_ACK and RELEASE: a consumer ends deliveries, acknowledging messages for good (an ACK
 * is answered once durable, a LAZY_ACK of an AUTO or DUPS_OK session once written, so that a
 * crash may bring its messages back once, redelivered; NON_PERSISTENT messages' acknowledgements
 * are not logged at all, since a crash drops those messages) or making one visible again, with or without counting the delivery and optionally
 * never to be offered to that consumer again. Both take only messages in flight to the named
 * consumer, and only over the connection it attached with: anything else is refused with
 * DELIVERY_NOT_HELD and changes nothing, so a stale, misdirected or hostile request cannot
 * delete or release what another consumer holds.
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

    public Frame release(RemotingConnection connection, Frame request) {
        ReleaseRequest release = request.header(ReleaseRequest.class);
        checkAttached(release.consumerId(), connection, 1);
        SubscriptionKey key = SubscriptionRefs.keyOf(release.subscription());
        Subscription subscription = find(key);
        MessagePosition p = release.message();
        consumers.takeNonPersistent(release.consumerId(), p.queueId(), p.queueOffset());
        boolean released = p.queueId() >= 0 && p.queueId() < subscription.queueCount()
                && subscription.withCursor(p.queueId(), cursor -> {
                    if (cursor.release(p.queueOffset(), release.consumerId(), release.countDelivery()) < 0) {
                        return false;
                    }
                    if (release.excludeConsumer()) {
                        cursor.exclude(p.queueOffset(), release.consumerId());
                    }
                    return true;
                });
        if (!released) {
            throw notHeld(release.consumerId(), 1, 1);
        }
        consumers.settled(release.consumerId(), 1);
        heldPulls.wake(key.storageName());
        return request.reply(null);
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
