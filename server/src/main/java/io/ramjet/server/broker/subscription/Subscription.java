package io.ramjet.server.broker.subscription;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A unit of consumption: one {@link QueueCursor} per message queue of its destination, the
 * consumers attached to it, and the selector and noLocal flag it was created with (a durable
 * subscription keeps them; re-subscribing with others replaces it, as Jakarta Messaging says).
 *
 * <p>Thread-safe: every method locks the subscription, so the broker's pull, ack and timeout
 * paths may call from any thread. In memory only; the broker persists it through CommitLog
 * records and checkpoint snapshots.
 */
public final class Subscription {

    private final SubscriptionKey key;
    private final String selector;
    private final boolean noLocal;
    private final QueueCursor[] cursors;
    private final Set<Long> consumers = new LinkedHashSet<>();

    /** Starts every message queue's cursor at the given offset (the tail for a new topic one). */
    public Subscription(SubscriptionKey key, String selector, boolean noLocal, long[] startOffsets) {
        this(key, selector, noLocal, cursorsAt(startOffsets));
    }

    public Subscription(SubscriptionKey key, String selector, boolean noLocal, QueueCursor[] cursors) {
        this.key = key;
        this.selector = selector;
        this.noLocal = noLocal;
        this.cursors = cursors.clone();
    }

    public SubscriptionKey key() {
        return key;
    }

    public String selector() {
        return selector;
    }

    public boolean noLocal() {
        return noLocal;
    }

    public int queueCount() {
        return cursors.length;
    }

    /** True when a consumer asking with this selector and noLocal may reuse this subscription. */
    public boolean sameTerms(String otherSelector, boolean otherNoLocal) {
        return noLocal == otherNoLocal && Objects.equals(normalise(selector), normalise(otherSelector));
    }

    /**
     * Attaches a consumer; refuses a second one on a subscription that is not shared.
     *
     * @return false when the subscription is not shared and already has a consumer
     */
    public synchronized boolean attach(long consumer) {
        if (!key.kind().shared() && !consumers.isEmpty() && !consumers.contains(consumer)) {
            return false;
        }
        consumers.add(consumer);
        return true;
    }

    /**
     * Detaches a consumer whose connection was lost: what it held becomes visible again,
     * counting a delivery.
     *
     * @return the messages it held, for the broker to check against the maximum deliveries
     */
    public synchronized List<Delivery> detach(long consumer) {
        consumers.remove(consumer);
        return releaseAll(consumer);
    }

    /**
     * Detaches a consumer that closed: what it held and the application never saw becomes
     * visible again uncounted; {@code kept} (per queue id, what its session still holds) stays
     * in flight to it, to be acknowledged or released by the session.
     */
    public synchronized List<Delivery> close(long consumer, Map<Integer, Set<Long>> kept) {
        consumers.remove(consumer);
        List<Delivery> released = new ArrayList<>();
        for (QueueCursor c : cursors) {
            released.addAll(c.releaseUnseen(consumer, kept.getOrDefault(c.queueId(), Set.of())));
        }
        return released;
    }

    /** Whether {@code consumer} is attached: only an attached consumer may claim messages. */
    public synchronized boolean isAttached(long consumer) {
        return consumers.contains(consumer);
    }

    public synchronized boolean hasConsumers() {
        return !consumers.isEmpty();
    }

    public synchronized int consumerCount() {
        return consumers.size();
    }

    /** Frees every message group of every message queue: the next message of each goes to whoever takes it. */
    public synchronized void releaseGroupOwners() {
        for (QueueCursor c : cursors) {
            c.releaseGroupOwners();
        }
    }

    public synchronized Set<Long> consumers() {
        return Set.copyOf(consumers);
    }

    /** Runs {@code work} on one message queue's cursor under the subscription's lock. */
    public synchronized <T> T withCursor(int queueId, Function<QueueCursor, T> work) {
        return work.apply(cursors[queueId]);
    }

    public synchronized List<Delivery> releaseAll(long consumer) {
        List<Delivery> released = new ArrayList<>();
        for (QueueCursor c : cursors) {
            released.addAll(c.releaseAll(consumer));
        }
        return released;
    }

    /** Per message queue, the lowest offset this subscription still needs. */
    public synchronized long[] lowWaterMarks() {
        long[] marks = new long[cursors.length];
        for (int i = 0; i < cursors.length; i++) {
            marks[i] = cursors[i].lowWater();
        }
        return marks;
    }

    private static QueueCursor[] cursorsAt(long[] startOffsets) {
        QueueCursor[] cursors = new QueueCursor[startOffsets.length];
        for (int i = 0; i < startOffsets.length; i++) {
            cursors[i] = new QueueCursor(i, startOffsets[i]);
        }
        return cursors;
    }

    private static String normalise(String selector) {
        return selector == null || selector.isBlank() ? null : selector.trim();
    }
}
