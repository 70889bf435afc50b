package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.MessagePosition;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import java.util.ArrayList;
import java.util.List;

/**
 * What a transaction does to the messages it consumed, in the subscriptions' cursors: holds
 * them while it is prepared (in flight with no deadline, so neither a visibility timeout nor
 * a closed consumer offers them again), acknowledges them when it commits, releases them with
 * the delivery counted when it rolls back. A subscription that no longer exists is passed over.
 * Thread-safe: cursors are locked by their subscription.
 */
final class ConsumedMessages {

    /** The consumer id a prepared transaction holds its messages under; no client uses it. */
    static final long HOLDER = Long.MIN_VALUE;

    private final SubscriptionTable subscriptions;
    private final HeldPulls heldPulls;

    ConsumedMessages(SubscriptionTable subscriptions, HeldPulls heldPulls) {
        this.subscriptions = subscriptions;
        this.heldPulls = heldPulls;
    }

    /**
     * The wire's acknowledgements as groups. A subscription the broker no longer has (a closed
     * non-durable one, a deleted destination) is left out: its messages are gone with it.
     *
     * @throws IllegalArgumentException for a queue id the subscription does not have
     */
    List<AckGroup> groups(List<AckRequest> acks) {
        List<AckGroup> groups = new ArrayList<>(acks.size());
        for (AckRequest ack : acks) {
            SubscriptionKey key = new SubscriptionKey(ack.subscription().destination(),
                    SubscriptionKind.valueOf(ack.subscription().type().name()), ack.subscription().clientId(),
                    ack.subscription().name());
            Subscription s = subscriptions.find(key).orElse(null);
            if (s == null) {
                continue;
            }
            List<Delivery> positions = new ArrayList<>(ack.messages().size());
            for (MessagePosition p : ack.messages()) {
                if (p.queueId() < 0 || p.queueId() >= s.queueCount()) {
                    throw new IllegalArgumentException("queue id " + p.queueId() + " not below " + s.queueCount());
                }
                positions.add(new Delivery(p.queueId(), p.queueOffset(), 0));
            }
            groups.add(new AckGroup(key, positions));
        }
        return groups;
    }

    void hold(List<AckGroup> acks) {
        forEach(acks, (s, d) -> s.withCursor(d.queueId(), cursor -> {
            cursor.release(d.offset(), false);
            try {
                cursor.claim(d.offset(), HOLDER, Long.MAX_VALUE);
            } catch (IllegalArgumentException | IllegalStateException acknowledgedOrUnknown) {
                // nothing to hold: it is acknowledged already, or not in this queue yet
            }
            return null;
        }));
    }

    /** Undoes {@link #hold} without counting a delivery: for a clean stop, whose snapshot would count it. */
    void unhold(List<AckGroup> acks) {
        forEach(acks, (s, d) -> s.withCursor(d.queueId(), cursor -> cursor.release(d.offset(), false)));
    }

    void acknowledge(List<AckGroup> acks) {
        forEach(acks, (s, d) -> s.withCursor(d.queueId(), cursor -> cursor.ack(d.offset())));
    }

    void release(List<AckGroup> acks) {
        forEach(acks, (s, d) -> s.withCursor(d.queueId(), cursor -> cursor.release(d.offset(), true)));
        for (AckGroup g : acks) {
            heldPulls.wake(g.subscription().storageName());
        }
    }

    private interface Action {
        void apply(Subscription subscription, Delivery delivery);
    }

    private void forEach(List<AckGroup> acks, Action action) {
        for (AckGroup g : acks) {
            subscriptions.find(g.subscription()).ifPresent(s -> {
                for (Delivery d : g.positions()) {
                    if (d.queueId() >= 0 && d.queueId() < s.queueCount()) {
                        action.apply(s, d);
                    }
                }
            });
        }
    }
}
