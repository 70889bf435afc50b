package io.ramjet.server.broker.log;

import io.ramjet.server.broker.record.ConsumptionRecordDescriptor;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per durable subscription and message queue, a logged bound below which every claimed offset
 * lies, so that after a crash a message claimed after the last snapshot still comes back as
 * possibly delivered (JMSRedelivered). A claim's messages may leave the broker once a MARK record
 * covering them is durable: {@link #claimed} answers with that future and never waits itself, so
 * no caller holds a lock across a disk wait.
 *
 * <p>A raised bound is the highest claim plus a lead, and it is raised again (one MARK record,
 * group-committed) once claims come within half the lead of it, while the bound already logged
 * still covers them: in a steady drain no pull waits for a MARK, and a queue costs one record per
 * half lead instead of one per pull. The lead is {@code ahead}, grown per queue to twice the
 * largest step its claims took at once (up to {@code maxLead}): a consumer whose pulls take
 * hundreds of messages from one queue (a backlog drain) would otherwise overrun the bound on
 * every pull and wait for the disk each time. It also doubles (up to {@code maxLead}) whenever a
 * claim has to wait for a MARK still on its way: half a lead of claims came faster than the disk
 * forced one record (a steady 5,000 msg/s covers 256 messages in 51 ms, and a loaded disk's
 * force takes longer now and then), so the next MARK is written further ahead, and a slow force
 * holds no delivery back. The price, after a crash only: up to the lead's
 * worth of messages per queue that were next in line but never offered come back with
 * JMSRedelivered=true and a JMSXDeliveryCount of 2 (the spec's "likely, not guaranteed"), but
 * none of them counts a delivery towards the dead-letter limit: the broker cannot tell which
 * were handed out. After a crash, every never-offered offset below the bound (clamped to what the
 * queue holds) is restored as possibly delivered; after a clean stop the snapshot is exact and
 * the bounds are ignored. Thread-safe.
 */
public final class DeliveryMarks {

    /** A raised bound is the highest claim plus at least this: about the over-count a crash may cause, per queue. */
    public static final int DEFAULT_AHEAD = 512;

    /**
     * The most a lead grows to: two pulls of the default prefetch (1,000) from one queue, so that
     * a backlog drain never waits for a MARK, and the most a crash over-counts per queue.
     */
    public static final int DEFAULT_MAX_LEAD = 2048;

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryMarks.class);
    private static final CompletableFuture<Void> DURABLE = CompletableFuture.completedFuture(null);

    /**
     * One subscription's bounds per queue, the highest known durable, the future of each queue's
     * latest MARK (null when durable) and of the one before it with its bound (null when none
     * is on its way), the highest claim seen and the lead (0 before the first claim:
     * {@code ahead}), guarded by itself.
     */
    private static final class Bounds {
        long[] marks;
        long[] durable;
        CompletableFuture<?>[] logged;
        long[] previousMarks;
        CompletableFuture<?>[] previous;
        long[] claimed;
        long[] leads;

        Bounds(int queues) {
            marks = new long[queues];
            durable = new long[queues];
            logged = new CompletableFuture<?>[queues];
            previousMarks = new long[queues];
            previous = new CompletableFuture<?>[queues];
            claimed = new long[queues];
            leads = new long[queues];
        }

        void grow(int queues) {
            if (marks.length < queues) {
                marks = Arrays.copyOf(marks, queues);
                durable = Arrays.copyOf(durable, queues);
                logged = Arrays.copyOf(logged, queues);
                previousMarks = Arrays.copyOf(previousMarks, queues);
                previous = Arrays.copyOf(previous, queues);
                claimed = Arrays.copyOf(claimed, queues);
                leads = Arrays.copyOf(leads, queues);
            }
        }

        /**
         * What a claim up to {@code highest} waits for: nothing below the durable bound, else the
         * oldest MARK on its way that covers it (MARKs become durable in log order, so a later one
         * covers too, only later); null when no logged bound covers it.
         */
        CompletableFuture<?> covering(int queueId, long highest) {
            if (highest < durable[queueId]) {
                return DURABLE;
            }
            if (previous[queueId] != null && highest < previousMarks[queueId]) {
                return previous[queueId];
            }
            if (highest < marks[queueId]) {
                return logged[queueId] == null ? DURABLE : logged[queueId];
            }
            return null;
        }
    }

    private final Map<SubscriptionKey, Bounds> bounds = new ConcurrentHashMap<>();
    private final int ahead;
    private final int maxLead;
    private volatile MessageStore store;

    /** @param ahead a raised bound is the highest claim plus this; 1 raises it to just past each claim */
    public DeliveryMarks(int ahead) {
        this(ahead, ahead);
    }

    /**
     * @param ahead   a raised bound is the highest claim plus at least this
     * @param maxLead the most the lead grows to with large steps of claims ({@code ahead}: never)
     */
    public DeliveryMarks(int ahead, int maxLead) {
        if (ahead < 1 || maxLead < ahead) {
            throw new IllegalArgumentException("need 1 <= ahead <= maxLead: " + ahead + ", " + maxLead);
        }
        this.ahead = ahead;
        this.maxLead = maxLead;
    }

    /** The store is open: claims may raise bounds from now on. */
    public void start(MessageStore openedStore) {
        this.store = openedStore;
    }

    /**
     * Called after claiming offsets up to {@code highest} on a queue; the claimed messages may
     * leave once the returned future completes (at once unless a MARK covering them is still on
     * its way to the disk); it fails if the store refuses the MARK.
     */
    public CompletableFuture<?> claimed(Subscription subscription, int queueId, long highest) {
        if (!subscription.key().kind().durable()) {
            return DURABLE;
        }
        Bounds b = bounds.computeIfAbsent(subscription.key(), k -> new Bounds(subscription.queueCount()));
        CompletableFuture<Void> raised = new CompletableFuture<>();
        long bound;
        CompletableFuture<?> covering;
        synchronized (b) {
            // bounds replayed from MARK records cover only the queues that had one: grow to them all
            b.grow(Math.max(subscription.queueCount(), queueId + 1));
            CompletableFuture<?> covered = b.covering(queueId, highest);
            long lead = lead(b, queueId, highest, covered != null && !covered.isDone());
            if (highest < b.marks[queueId] - lead / 2) {
                return covered;
            }
            covering = covered == null ? raised : covered;
            bound = highest + lead;
            b.previousMarks[queueId] = b.marks[queueId];
            b.previous[queueId] = b.logged[queueId];
            b.marks[queueId] = bound;
            b.logged[queueId] = raised;
        }
        try {
            store.append(ConsumptionRecordDescriptor.mark(subscription.key().toRecord(), queueId, bound), true)
                    .whenComplete((result, failure) -> logged(b, queueId, bound, raised, failure));
        } catch (RuntimeException e) {
            logged(b, queueId, bound, raised, e);
        }
        return covering;
    }

    /**
     * The queue's lead after a claim up to {@code highest}: grown to twice the step from the last
     * highest claim, and doubled if the claim {@code waits} for a MARK on its way.
     */
    private long lead(Bounds b, int queueId, long highest, boolean waits) {
        long step = highest - b.claimed[queueId];
        b.claimed[queueId] = Math.max(b.claimed[queueId], highest);
        long lead = Math.max(b.leads[queueId], ahead);
        long grown = Math.max(2 * step, waits ? 2 * lead : 0);
        b.leads[queueId] = Math.max(lead, Math.min(maxLead, grown));
        return b.leads[queueId];
    }

    /**
     * A MARK is durable, or the store refused it: then the bound falls back to the highest
     * durable one, so the next claims above that write a MARK of their own.
     */
    private static void logged(Bounds b, int queueId, long bound, CompletableFuture<Void> raised, Throwable failure) {
        synchronized (b) {
            if (failure == null) {
                b.durable[queueId] = Math.max(b.durable[queueId], bound);
            } else if (b.logged[queueId] == raised) {
                b.marks[queueId] = b.durable[queueId];
                b.logged[queueId] = null;
            }
            boolean previousSettled = b.previous[queueId] != null && b.previousMarks[queueId] <= b.durable[queueId];
            if (b.previous[queueId] == raised || previousSettled) {
                b.previous[queueId] = null;
            }
        }
        if (failure == null) {
            raised.complete(null);
        } else {
            raised.completeExceptionally(failure);
        }
    }

    /**
     * A durable subscription was just created at {@code startOffsets}, its record written but not
     * yet forced: logs a bound {@code ahead} past each queue's start, the last MARK forced, which
     * makes the subscription's record durable too (the log is one sequence). Answer the
     * subscription once the returned future completes: its first claims then wait for no MARK of
     * their own, so its first delivery costs no force. Bounds still on their way cover claims as
     * any MARK on its way does.
     */
    public CompletableFuture<Void> started(Subscription subscription, long[] startOffsets) {
        int queues = startOffsets.length;
        Bounds b = bounds.computeIfAbsent(subscription.key(), k -> new Bounds(Math.max(queues, 1)));
        long[] bound = new long[queues];
        List<CompletableFuture<Void>> raised = new ArrayList<>(queues);
        synchronized (b) {
            b.grow(queues);
            for (int q = 0; q < queues; q++) {
                bound[q] = startOffsets[q] + ahead;
                CompletableFuture<Void> queueRaised = new CompletableFuture<>();
                raised.add(queueRaised);
                b.claimed[q] = startOffsets[q];
                b.marks[q] = bound[q];
                b.logged[q] = queueRaised;
            }
        }
        CompletableFuture<Void> forced = new CompletableFuture<>();
        try {
            CompletableFuture<?> last = CompletableFuture.completedFuture(null);
            for (int q = 0; q < queues; q++) {
                last = store.append(ConsumptionRecordDescriptor.mark(subscription.key().toRecord(), q, bound[q]),
                        q == queues - 1);
            }
            last.whenComplete((result, failure) -> forced(b, bound, raised, forced, failure));
        } catch (RuntimeException e) {
            forced(b, bound, raised, forced, e);
        }
        return forced;
    }

    private static void forced(Bounds b, long[] bound, List<CompletableFuture<Void>> raised,
                               CompletableFuture<Void> forced, Throwable failure) {
        for (int q = 0; q < bound.length; q++) {
            logged(b, q, bound[q], raised.get(q), failure);
        }
        if (failure == null) {
            forced.complete(null);
        } else {
            forced.completeExceptionally(failure);
        }
    }

    /** A MARK record or snapshot says the bound is at least {@code mark}. */
    public void raise(SubscriptionKey key, int queueId, long mark) {
        Bounds b = bounds.computeIfAbsent(key, k -> new Bounds(queueId + 1));
        synchronized (b) {
            b.grow(queueId + 1);
            b.marks[queueId] = Math.max(b.marks[queueId], mark);
            b.durable[queueId] = Math.max(b.durable[queueId], mark);
        }
    }

    /** A subscription was created or replaced: its old bounds mean nothing for it. */
    public void reset(SubscriptionKey key) {
        bounds.remove(key);
    }

    /** The bounds of a subscription, for the snapshot; zeros when it has none. */
    public long[] of(SubscriptionKey key, int queueCount) {
        Bounds b = bounds.get(key);
        long[] out = new long[queueCount];
        if (b != null) {
            synchronized (b) {
                System.arraycopy(b.marks, 0, out, 0, Math.min(queueCount, b.marks.length));
            }
        }
        return out;
    }

    /** After a crash: offsets below each bound that no snapshot or record shows offered are flagged possibly delivered. */
    public void applyAfterCrash(SubscriptionTable subscriptions, MessageStore opened) {
        for (Subscription s : subscriptions.all()) {
            long[] marks = of(s.key(), s.queueCount());
            for (int q = 0; q < marks.length; q++) {
                long bound = Math.min(marks[q], opened.maxQueueOffset(s.key().storageName(), q));
                int counted = s.withCursor(q, cursor -> cursor.possiblyDeliveredBelow(bound));
                if (counted > 0) {
                    LOG.info("{} queue {}: {} messages claimed after the last snapshot are flagged possibly delivered",
                            s.key(), q, counted);
                }
            }
        }
    }
}
