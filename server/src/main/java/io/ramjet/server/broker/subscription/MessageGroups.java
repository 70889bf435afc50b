package io.ramjet.server.broker.subscription;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Who owns each message group of one message queue, and how many of its messages are in flight.
 * A producer sends all of a group to one message queue, so one queue's table sees all of it.
 *
 * <p>The rules: a group belongs to the consumer that took its first message, for as long as that
 * consumer stays, the group stays busy (idle timeout), and no message with {@code JMSXGroupSeq = -1}
 * closed it. Nobody else takes a message of a group while one of its messages is in flight
 * (strict order), whoever holds that one (a consumer, a closed consumer's session, a
 * transaction). A group whose owner left, was closed or went idle, with nothing in flight, is
 * free: the next consumer to take one of its messages owns it. The one exception: a message the
 * owner's selector refused may go to another consumer once nothing of the group is in flight,
 * without moving the group.
 *
 * <p>An entry exists only while a group has an owner or messages in flight; free entries are
 * dropped as they are met and by a sweep as the table grows. In memory only: after a broker
 * restart every group is free. Not thread-safe: guarded by the cursor's subscription.
 */
final class MessageGroups {

    private static final long NO_OWNER = PendingMessage.NO_CONSUMER;
    private static final int FIRST_SWEEP = 1024;

    private static final class Group {
        long owner = NO_OWNER;
        int inFlight;
        long lastActive;
        boolean closing;
    }

    private final Map<String, Group> groups = new HashMap<>();
    private int sweepAt = FIRST_SWEEP;

    /**
     * Whether {@code consumer} may take a message of {@code id} now.
     *
     * @param ownerRefused whether the message was refused by a given consumer's selector
     */
    GroupAdmission admit(String id, long consumer, LongPredicate ownerRefused, long now, MessageGroupPolicy policy) {
        Group g = groups.get(id);
        if (g == null || free(g, now, policy)) {
            return GroupAdmission.NEW;
        }
        if (g.owner == consumer) {
            return GroupAdmission.HELD;
        }
        if (g.inFlight == 0 && ownerRefused.test(g.owner)) {
            return GroupAdmission.HELD;
        }
        return GroupAdmission.REFUSED;
    }

    /** A message of {@code tag}'s group went in flight to {@code consumer}, admitted as {@link #admit} said. */
    void claimed(GroupTag tag, long consumer, long now, MessageGroupPolicy policy) {
        Group g = groups.get(tag.id());
        if (g == null) {
            g = new Group();
            groups.put(tag.id(), g);
            sweepIfLarge(now, policy);
        }
        if (g.owner == consumer || free(g, now, policy)) {
            g.owner = consumer;
            g.closing = tag.closes();
        }
        g.inFlight++;
        g.lastActive = now;
    }

    /**
     * A message of group {@code id} is no longer in flight (acknowledged, released).
     *
     * @return whether the group became free, so consumers waiting for it may take it now
     */
    boolean ended(String id, long now) {
        Group g = groups.get(id);
        if (g == null) {
            return false;
        }
        g.inFlight = Math.max(0, g.inFlight - 1);
        g.lastActive = now;
        if (g.inFlight == 0 && (g.owner == NO_OWNER || g.closing)) {
            groups.remove(id);
            return true;
        }
        return false;
    }

    /**
     * A consumer left: its groups are free once nothing of them is in flight.
     *
     * @return whether it owned any
     */
    boolean ownerLeft(long consumer) {
        boolean owned = false;
        Iterator<Group> it = groups.values().iterator();
        while (it.hasNext()) {
            Group g = it.next();
            if (g.owner == consumer) {
                owned = true;
                g.owner = NO_OWNER;
                if (g.inFlight == 0) {
                    it.remove();
                }
            }
        }
        return owned;
    }

    /** Every group loses its owner (a consumer joined and groups are rebalanced). */
    void releaseOwners() {
        Iterator<Group> it = groups.values().iterator();
        while (it.hasNext()) {
            Group g = it.next();
            g.owner = NO_OWNER;
            if (g.inFlight == 0) {
                it.remove();
            }
        }
    }

    /** How many groups {@code consumer} owns, for tests and metrics. */
    int ownedBy(long consumer) {
        int n = 0;
        for (Group g : groups.values()) {
            if (g.owner == consumer) {
                n++;
            }
        }
        return n;
    }

    private static boolean free(Group g, long now, MessageGroupPolicy policy) {
        return g.inFlight == 0 && (g.owner == NO_OWNER || g.closing || now - g.lastActive >= policy.idleMillis());
    }

    /** Drops free entries once the table has doubled since the last sweep: amortised constant per new group. */
    private void sweepIfLarge(long now, MessageGroupPolicy policy) {
        if (groups.size() < sweepAt) {
            return;
        }
        groups.values().removeIf(g -> free(g, now, policy));
        sweepAt = Math.max(FIRST_SWEEP, groups.size() * 2);
    }
}
