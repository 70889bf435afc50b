package io.ramjet.server.broker.log;

import io.ramjet.server.broker.record.ConsumptionRecordDescriptor;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per durable subscription and message queue, a logged bound below which every claimed offset
 * lies, so that after a crash a message claimed after the last snapshot still comes back as
 * possibly delivered (JMSRedelivered). A pull that claims past the bound raises it to just past
 * its highest claim and writes a MARK record, waiting until it is durable before the messages
 * leave: one group-committed record per pull that reads new messages, none for redeliveries.
 * Raising it further ahead would save records but count a backlog nobody saw as delivered. After a crash, every never-offered offset below the bound
 * (clamped to what the queue holds) is restored as delivered once; after a clean stop the
 * snapshot is exact and the bounds are ignored. Thread-safe.
 */
public final class DeliveryMarks {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryMarks.class);

    private final Map<SubscriptionKey, long[]> bounds = new ConcurrentHashMap<>();
    private volatile MessageStore store;

    /** The store is open: claims may raise bounds from now on. */
    public void start(MessageStore openedStore) {
        this.store = openedStore;
    }

    /** Called after claiming offsets up to {@code highest} on a queue, before the messages are sent. */
    public void claimed(Subscription subscription, int queueId, long highest) {
        if (!subscription.key().kind().durable()) {
            return;
        }
        int queues = subscription.queueCount();
        // bounds replayed from MARK records cover only the queues that had one: grow to them all
        long[] marks = bounds.compute(subscription.key(), (k, known) -> known == null ? new long[queues]
                : known.length >= queues ? known : Arrays.copyOf(known, queues));
        long raised;
        synchronized (marks) {
            if (highest < marks[queueId]) {
                return;
            }
            raised = highest + 1;
            marks[queueId] = raised;
        }
        store.append(ConsumptionRecordDescriptor.mark(subscription.key().toRecord(), queueId, raised), true).join();
    }

    /** A MARK record or snapshot says the bound is at least {@code mark}. */
    public void raise(SubscriptionKey key, int queueId, long mark) {
        bounds.compute(key, (k, marks) -> {
            long[] grown = marks == null ? new long[queueId + 1]
                    : marks.length > queueId ? marks : Arrays.copyOf(marks, queueId + 1);
            synchronized (grown) {
                grown[queueId] = Math.max(grown[queueId], mark);
            }
            return grown;
        });
    }

    /** A subscription was created or replaced: its old bounds mean nothing for it. */
    public void reset(SubscriptionKey key) {
        bounds.remove(key);
    }

    /** The bounds of a subscription, for the snapshot; zeros when it has none. */
    public long[] of(SubscriptionKey key, int queueCount) {
        long[] marks = bounds.get(key);
        long[] out = new long[queueCount];
        if (marks != null) {
            synchronized (marks) {
                System.arraycopy(marks, 0, out, 0, Math.min(queueCount, marks.length));
            }
        }
        return out;
    }

    /** After a crash: offsets below each bound that no snapshot or record shows offered count as delivered. */
    public void applyAfterCrash(SubscriptionTable subscriptions, MessageStore opened) {
        for (Subscription s : subscriptions.all()) {
            long[] marks = of(s.key(), s.queueCount());
            for (int q = 0; q < marks.length; q++) {
                long bound = Math.min(marks[q], opened.maxQueueOffset(s.key().storageName(), q));
                int counted = s.withCursor(q, cursor -> cursor.possiblyDeliveredBelow(bound));
                if (counted > 0) {
                    LOG.info("{} queue {}: {} messages claimed after the last snapshot count as delivered",
                            s.key(), q, counted);
                }
            }
        }
    }
}
