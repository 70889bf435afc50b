package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.MessagePosition;
import io.ramjet.protocol.command.ReleaseRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.delivery.Acknowledgements;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * ACK and RELEASE: a consumer ends a delivery, acknowledging the message for good (answered
 * once durable) or making it visible again, with or without counting the delivery and
 * optionally never to be offered to that consumer again.
 */
public final class AckProcessor {

    private final SubscriptionTable subscriptions;
    private final Acknowledgements acknowledgements;
    private final HeldPulls heldPulls;

    public AckProcessor(SubscriptionTable subscriptions, Acknowledgements acknowledgements, HeldPulls heldPulls) {
        this.subscriptions = subscriptions;
        this.acknowledgements = acknowledgements;
        this.heldPulls = heldPulls;
    }

    public CompletionStage<Frame> ack(RemotingConnection connection, Frame request) throws RemotingCommandException {
        AckRequest ack = request.header(AckRequest.class);
        Subscription subscription = find(SubscriptionRefs.keyOf(ack.subscription()));
        List<Delivery> positions = new ArrayList<>(ack.messages().size());
        for (MessagePosition p : ack.messages()) {
            positions.add(new Delivery(p.queueId(), p.queueOffset(), 0));
        }
        return acknowledgements.ack(subscription, positions).thenApply(done -> request.reply(null));
    }

    public Frame release(RemotingConnection connection, Frame request) throws RemotingCommandException {
        ReleaseRequest release = request.header(ReleaseRequest.class);
        SubscriptionKey key = SubscriptionRefs.keyOf(release.subscription());
        Subscription subscription = find(key);
        MessagePosition p = release.message();
        if (p.queueId() < 0 || p.queueId() >= subscription.queueCount()) {
            throw new IllegalArgumentException("queue id " + p.queueId() + " not below " + subscription.queueCount());
        }
        boolean released = subscription.withCursor(p.queueId(), cursor -> {
            if (cursor.release(p.queueOffset(), release.countDelivery()) < 0) {
                return false;
            }
            if (release.excludeConsumer()) {
                cursor.exclude(p.queueOffset(), release.consumerId());
            }
            return true;
        });
        if (released) {
            heldPulls.wake(key.storageName());
        }
        return request.reply(null);
    }

    private Subscription find(SubscriptionKey key) throws RemotingCommandException {
        return subscriptions.find(key).orElseThrow(() -> new RemotingCommandException(ErrorStatus.NOT_FOUND,
                "no subscription '" + key.name() + "' of " + key.destination()));
    }
}
