package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.session.ClientSession;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import java.util.ArrayList;
import java.util.List;

/**
 * What a transaction does to the messages it consumed, in the subscriptions' cursors. Before a
 * client's prepare or commit is written, the transaction takes them over from the consumers they
 * were delivered to ({@link #take}): all of them, or none and the transaction rolls back, so a
 * transaction never acknowledges a message that is no longer its own (its delivery lost with a
 * broker restart or a lost connection, or handed to another consumer since) nor one delivered to
 * another user. Taken or prepared,
 * they are in flight to {@link #HOLDER}, so neither a closed consumer nor a lost connection
 * offers them again; a commit acknowledges them, a rollback releases them with the delivery
 * counted. A subscription that no longer exists is passed over. Thread-safe: cursors are locked
 * by their subscription.
 */
final class ConsumedMessages {

    /** The consumer id a transaction holds its messages under; no client uses it. */
    static final long HOLDER = Long.MIN_VALUE;

    private final SubscriptionTable subscriptions;
    private final HeldPulls heldPulls;
    private volatile DeliveryOwners owners;

    ConsumedMessages(SubscriptionTable subscriptions, HeldPulls heldPulls) {
        this.subscriptions = subscriptions;
        this.heldPulls = heldPulls;
    }

    /** The broker serves clients from now on: {@link #take} asks {@code deliveryOwners}. */
    void serve(DeliveryOwners deliveryOwners) {
        this.owners = deliveryOwners;
    }

    /**
     * The client's acknowledgements of subscriptions the broker still has. One it no longer has
     * (a closed non-durable one, a deleted destination) is left out: its messages are gone with it.
     *
     * @throws BrokerException BAD_REQUEST for a queue id the subscription does not have
     */
    List<AckGroup> present(List<AckGroup> acks) {
        List<AckGroup> groups = new ArrayList<>(acks.size());
        for (AckGroup ack : acks) {
            Subscription s = subscriptions.find(ack.subscription()).orElse(null);
            if (s == null) {
                continue;
            }
            for (Delivery p : ack.positions()) {
                if (p.queueId() < 0 || p.queueId() >= s.queueCount()) {
                    throw new BrokerException(Refusal.BAD_REQUEST, "queue id " + p.queueId() + " not below "
                            + s.queueCount());
                }
            }
            groups.add(ack);
        }
        return groups;
    }

    /**
     * Takes over every message of {@code acks} from its consumer for the transaction, if each
     * is in flight to that consumer and the consumer is attached over a connection of
     * {@code session}'s user; otherwise takes none.
     *
     * @return how many were not held (0: all were taken)
     */
    int take(ClientSession session, List<AckGroup> acks) {
        List<AckGroup> taken = new ArrayList<>();
        int missing = 0;
        for (AckGroup g : acks) {
            if (!owners.attachedAs(g.consumer(), session)) {
                missing += g.positions().size();
                continue;
            }
            List<Delivery> moved = new ArrayList<>();
            forEach(List.of(g), (s, d) -> {
                if (s.withCursor(d.queueId(), cursor -> cursor.transfer(d.offset(), g.consumer(), HOLDER))) {
                    moved.add(d);
                }
            });
            missing += g.positions().size() - moved.size();
            taken.add(new AckGroup(g.subscription(), g.consumer(), moved));
        }
        if (missing > 0) {
            giveBack(taken);
            return missing;
        }
        for (AckGroup g : acks) {
            owners.settled(g.consumer(), g.positions().size());
        }
        return 0;
    }

    /**
     * A transaction of {@code session} names {@code acks} as consumed, whatever becomes of it:
     * the application was given them, so each still in flight to its consumer (attached over a
     * connection of that session's user) counts its delivery when given back, even by a
     * consumer that closes without keeping it.
     */
    void seen(ClientSession session, List<AckGroup> acks) {
        for (AckGroup g : acks) {
            if (owners.attachedAs(g.consumer(), session)) {
                forEach(List.of(g), (s, d) -> s.withCursor(d.queueId(), cursor -> cursor.seen(d.offset(), g.consumer())));
            }
        }
    }

    /**
     * Undoes a {@link #take} whose record could not be written: the consumers hold their messages
     * again, as {@link #seen} by their applications.
     */
    void giveBack(List<AckGroup> acks) {
        forEach(acks, (s, d, g) -> s.withCursor(d.queueId(), cursor -> cursor.transfer(d.offset(), HOLDER, g.consumer())
                && cursor.seen(d.offset(), g.consumer())));
    }

    /** A prepared transaction's messages, replayed after a restart: the transaction holds them again. */
    void hold(List<AckGroup> acks) {
        forEach(acks, (s, d) -> s.withCursor(d.queueId(), cursor -> {
            if (!cursor.transfer(d.offset(), HOLDER, HOLDER)) {
                try {
                    cursor.claim(d.offset(), HOLDER);
                } catch (IllegalArgumentException | IllegalStateException acknowledgedOrUnknown) {
                    // nothing to hold: it is acknowledged already, or not in this queue yet
                }
            }
            return null;
        }));
    }

    /** Undoes {@link #hold} without counting a delivery: for a clean stop, whose snapshot would count it. */
    void unhold(List<AckGroup> acks) {
        forEach(acks, (s, d) -> s.withCursor(d.queueId(), cursor -> cursor.release(d.offset(), HOLDER, false)));
    }

    void acknowledge(List<AckGroup> acks) {
        forEach(acks, (s, d) -> s.withCursor(d.queueId(), cursor -> cursor.ack(d.offset())));
    }

    /**
     * Rolls back: releases, counting a delivery, each message the transaction holds or its
     * group's consumer still holds (one it consumed but never took over).
     */
    void release(List<AckGroup> acks) {
        forEach(acks, (s, d, g) -> {
            boolean fromConsumer = s.withCursor(d.queueId(), cursor -> cursor.release(d.offset(), HOLDER, true) < 0
                    && g.consumer() != HOLDER && cursor.release(d.offset(), g.consumer(), true) >= 0);
            DeliveryOwners known = owners;
            if (fromConsumer && known != null) {
                known.settled(g.consumer(), 1);
            }
        });
        for (AckGroup g : acks) {
            subscriptions.find(g.subscription()).ifPresent(s -> heldPulls.wake(g.subscription().storageName(), s));
        }
    }

    private interface Action {
        void apply(Subscription subscription, Delivery delivery, AckGroup group);
    }

    private interface SimpleAction {
        void apply(Subscription subscription, Delivery delivery);
    }

    private void forEach(List<AckGroup> acks, SimpleAction action) {
        forEach(acks, (s, d, g) -> action.apply(s, d));
    }

    private void forEach(List<AckGroup> acks, Action action) {
        for (AckGroup g : acks) {
            subscriptions.find(g.subscription()).ifPresent(s -> {
                for (Delivery d : g.positions()) {
                    if (d.queueId() >= 0 && d.queueId() < s.queueCount()) {
                        action.apply(s, d, g);
                    }
                }
            });
        }
    }
}
