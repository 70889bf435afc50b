package io.ramjet.server.broker.delivery;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.selector.HeaderSectionView;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.log.NonPersistentHorizon;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.GroupAdmission;
import io.ramjet.server.broker.subscription.GroupTag;
import io.ramjet.server.broker.subscription.MessageGroupPolicy;
import io.ramjet.server.broker.subscription.QueueCursor;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.storage.ConsumeQueueSlice;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.RecordReadException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Claims messages of a subscription for one consumer: walks its message queues round-robin,
 * takes each cursor's next candidate, claims it for the consumer and reads its record. One
 * fetch returns at most the bytes of records it is given (always at least one message), so a
 * pull response stays below the frame limit whatever the messages' sizes. Along the way it acks away what can never be delivered (gone to retention, expired)
 * and hands what was delivered too often to the {@link DeadLetterQueue}. Only PERSISTENT claims
 * raise the MARKs ({@link DeliveryMarks}); NON_PERSISTENT messages stored before the last crash
 * are acknowledged away ({@link NonPersistentHorizon}). Thread-safe; cursors
 * are locked by their subscription.
 *
 * <p>The consumer's {@link ConsumerSelector} decides what is offered: a candidate whose tag
 * signature covers none of its masks is passed over without reading its record; otherwise, for
 * a consumer with a selector, the record is read and the selector evaluated before the
 * candidate is claimed, so a message it refuses is never in flight to that consumer and the
 * others see it at once. On a queue, whose consumers have selectors of their own, a refused
 * message is excluded for that consumer only; a topic subscription's one selector never takes
 * it, so there it is acknowledged. Entries are read in slices ({@link ConsumeQueueSlice}) and
 * their signatures tested in place; a record read is walked once, for its group and the selector.
 *
 * <p>Message groups ({@link MessageGroupPolicy}), on a queue or shared subscription: before a
 * candidate is claimed its group is read (from the cursor when it was read before, else from the
 * record) and the cursor's group rules admit it or not; a candidate another consumer's group
 * holds is passed, left visible for that consumer. One fetch takes at most its share of free
 * groups (its message count over the subscription's consumers, at least one), so a first pull
 * with a backlog does not take every group and the groups spread over the consumers that pull.
 */
public final class MessageFetcher {

    private static final Logger LOG = LoggerFactory.getLogger(MessageFetcher.class);

    /**
     * Record bytes one pull response holds at most, unless its first message alone is larger:
     * with records of at most 4 MiB, a response stays well below the 16 MiB frame limit.
     */
    public static final int MAX_BYTES = 8 << 20;

    /** ConsumeQueue entries a scan reads at once: a selector taking one message in ten needs ten per claim. */
    private static final int SLICE_ENTRIES = 128;

    /** A candidate with no readable ConsumeQueue entry: its record read decides. */
    private static final long NO_ENTRY = -1;

    private final MessageStore store;
    private final DeadLetterQueue deadLetters;
    private final DeliveryMarks marks;
    private final int maxDeliveries;
    private final AtomicInteger rotation = new AtomicInteger();
    private final LongAdder recordsRead;
    private final MessageGroupPolicy groups;
    private final DiscardCounts discards;
    private final NonPersistentHorizon horizon;

    /**
     * @param recordsRead counts every CommitLog record this fetcher reads: the cost tag filtering saves
     * @param groups      how message groups are honoured
     * @param discards    counts the expired messages it acknowledges away
     * @param horizon     NON_PERSISTENT messages from before it are acknowledged away, never delivered
     */
    public MessageFetcher(MessageStore store, DeadLetterQueue deadLetters, DeliveryMarks marks, int maxDeliveries,
                          LongAdder recordsRead, MessageGroupPolicy groups, DiscardCounts discards,
                          NonPersistentHorizon horizon) {
        this.store = store;
        this.horizon = horizon;
        this.discards = discards;
        this.groups = groups;
        this.recordsRead = recordsRead;
        this.marks = marks;
        this.deadLetters = deadLetters;
        this.maxDeliveries = maxDeliveries;
    }

    /**
     * Up to {@code max} messages claimed for {@code consumer}, their records together at most
     * {@code maxBytes} unless the first alone is larger; empty when nothing is offerable. They
     * may leave once the MARKs covering them are durable; if the store refuses a MARK, they are
     * given back uncounted, as if never claimed, and the future fails.
     */
    public Fetched fetch(Destination destination, Subscription subscription, long consumer,
                         ConsumerSelector selector, int max, long maxBytes) {
        int consumers = Math.max(1, subscription.consumerCount());
        int newGroups = Math.max(1, max / consumers + (max % consumers == 0 ? 0 : 1));
        Batch out = new Batch(max, maxBytes, newGroups);
        int queues = subscription.queueCount();
        int start = Math.floorMod(rotation.getAndIncrement(), queues);
        List<CompletableFuture<?>> marked = new ArrayList<>(1);
        try {
            for (int i = 0; i < queues && out.hasRoom(); i++) {
                int queueId = (start + i) % queues;
                CompletableFuture<?> mark = fetchQueue(destination, subscription, queueId, consumer, selector, out);
                if (!mark.isDone() || mark.isCompletedExceptionally()) {
                    marked.add(mark);
                }
            }
        } catch (RuntimeException e) {
            out.giveBack(subscription, consumer);
            throw e;
        }
        if (out.messages.isEmpty()) {
            return Fetched.nothing();
        }
        CompletableFuture<Void> leaves = CompletableFuture.allOf(marked.toArray(CompletableFuture[]::new));
        leaves.whenComplete((done, failure) -> {
            if (failure != null) {
                out.giveBack(subscription, consumer);
            }
        });
        return new Fetched(List.copyOf(out.messages), leaves);
    }

    /** What one fetch has claimed so far, against its count and byte bounds. */
    private static final class Batch {
        private final int max;
        private final long maxBytes;
        private final List<FetchedMessage> messages = new ArrayList<>();
        private long bytes;
        private boolean full;
        /** Free groups this fetch may still take. */
        private int newGroups;
        /** Where the scan of the current queue resumes: the offsets below were passed. */
        private long resumeAt = -1;
        /** Whether all passed so far in the current queue wait for other consumers' groups (else a floor must stay). */
        private boolean onlyOthersGroupsPassed = true;
        /**
         * The current queue's entries around the scan, read in bulk; made at the first candidate,
         * so a fetch that finds nothing (most of a pass over many subscriptions) allocates none.
         */
        private ConsumeQueueSlice entries;
        /** The queue whose entries {@link #entries} holds, -1 for none. */
        private int entriesQueue = -1;
        /** The header section of the record read last, walked once for its group and the selector; made at first use. */
        private HeaderSectionView headers;
        private MessageRecordView headersOf;

        Batch(int max, long maxBytes, int newGroups) {
            this.max = max;
            this.maxBytes = maxBytes;
            this.newGroups = newGroups;
        }

        boolean hasRoom() {
            return !full && messages.size() < max;
        }

        /** Whether a record of {@code size} bytes still fits; if not, the batch is full. */
        boolean fits(int size) {
            if (!messages.isEmpty() && bytes + size > maxBytes) {
                full = true;
            }
            return !full;
        }

        /** The view of a record's header section, walked when it is not the record viewed last. */
        HeaderSectionView headers(MessageRecordView record, int deliveryCount) {
            if (headers == null) {
                headers = new HeaderSectionView();
            }
            if (record != headersOf) {
                headers.reset(record.properties(), deliveryCount);
                headersOf = record;
            }
            return headers;
        }

        void add(FetchedMessage m) {
            messages.add(m);
            bytes += m.record().totalSize();
        }

        /** The fetch failed (a MARK the store refused): its claims go back uncounted, as if never made. */
        void giveBack(Subscription subscription, long consumer) {
            for (FetchedMessage m : messages) {
                Delivery d = m.delivery();
                subscription.withCursor(d.queueId(), cursor -> cursor.release(d.offset(), consumer, false));
            }
            messages.clear();
        }
    }

    /** Claims from one queue into {@code out}; returns when its claims may leave. */
    private CompletableFuture<?> fetchQueue(Destination destination, Subscription subscription, int queueId, long consumer,
                            ConsumerSelector selector, Batch out) {
        String storageName = destination.storageName();
        long maxOffset = store.maxQueueOffset(storageName, queueId);
        long highest = -1;
        out.resumeAt = -1;
        out.onlyOthersGroupsPassed = true;
        if (groups.enabled()) {
            subscription.withCursor(queueId, cursor -> {
                cursor.revisitIdleGroups(System.currentTimeMillis(), groups);
                return null;
            });
        }
        while (out.hasRoom()) {
            Claim claim = subscription.withCursor(queueId, cursor -> nextClaim(subscription, cursor, storageName,
                    consumer, selector, maxOffset, out));
            if (claim == null) {
                break;
            }
            Delivery delivery = claim.delivery();
            MessageRecordView record = claim.record() != null ? claim.record()
                    : readRecord(storageName, queueId, delivery.offset(), claim.physicalOffset());
            if (record == null || horizon.lost(record)) {
                ack(subscription, delivery);
            } else if (MessageExpiration.expired(record, System.currentTimeMillis())) {
                ack(subscription, delivery);
                discards.expired(storageName);
            } else if (delivery.countedBefore() >= maxDeliveries) {
                deadLetters.moveAndAck(destination, subscription, consumer, delivery, record);
            } else {
                if (!NonPersistentHorizon.nonPersistent(record)) {
                    highest = Math.max(highest, delivery.offset()); // a NON_PERSISTENT claim needs no MARK
                }
                out.add(new FetchedMessage(delivery, record));
            }
        }
        return highest >= 0 ? marks.claimed(subscription, queueId, highest) : CompletableFuture.completedFuture(null);
    }

    /**
     * Claims the next candidate the selector takes, or returns null when none is left; what it
     * refuses on the way is excluded (queue) or acknowledged (topic); null too when the next
     * candidate's record would not fit in the batch. Runs under the subscription's lock.
     */
    private Claim nextClaim(Subscription subscription, QueueCursor cursor, String storageName, long consumer,
                            ConsumerSelector selector, long maxOffset, Batch out) {
        int queueId = cursor.queueId();
        if (!subscription.isAttached(consumer)) {
            return null; // detached meanwhile (closed, connection lost): a claim now would never be released
        }
        boolean grouping = groups.enabled() && subscription.key().kind().shared();
        long now = System.currentTimeMillis();
        long candidate;
        while ((candidate = cursor.nextCandidate(consumer, maxOffset, out.resumeAt, out.onlyOthersGroupsPassed)) >= 0) {
            long physicalOffset = entryAt(storageName, queueId, candidate, out);
            if (physicalOffset != NO_ENTRY && !out.fits(out.entries.size(candidate))) {
                return null;
            }
            if (physicalOffset == NO_ENTRY || selector.mayMatch(out.entries.tagSignature(candidate))) {
                MessageRecordView record = null;
                GroupTag group = GroupTag.NONE;
                GroupAdmission admission = GroupAdmission.HELD;
                if (grouping) {
                    group = cursor.groupOf(candidate);
                    if (group == null) {
                        record = readRecord(storageName, queueId, candidate, physicalOffset);
                        if (record == null) {
                            cursor.ack(candidate); // gone to retention: as below, in memory only
                            continue;
                        }
                        group = GroupReader.read(out.headers(record, cursor.deliveries(candidate) + 1));
                    }
                    admission = cursor.admit(candidate, group, consumer, now, groups);
                    if (admission == GroupAdmission.REFUSED
                            || (admission == GroupAdmission.NEW && out.newGroups == 0)) {
                        out.onlyOthersGroupsPassed &= admission == GroupAdmission.REFUSED;
                        cursor.pass(candidate, group);
                        out.resumeAt = candidate + 1;
                        continue;
                    }
                }
                if (selector.evaluates() && record == null) {
                    record = readRecord(storageName, queueId, candidate, physicalOffset);
                    if (record == null) {
                        cursor.ack(candidate); // gone to retention: as below, in memory only
                        continue;
                    }
                }
                if (!selector.evaluates() || selector.matches(out.headers(record, cursor.deliveries(candidate) + 1))) {
                    if (admission == GroupAdmission.NEW) {
                        out.newGroups--;
                    }
                    return new Claim(cursor.claim(candidate, consumer, group, now, groups), physicalOffset, record);
                }
            }
            if (subscription.key().kind() == SubscriptionKind.QUEUE) {
                cursor.exclude(candidate, consumer);
            } else {
                cursor.ack(candidate);
            }
        }
        return null;
    }

    /**
     * A claimed delivery, the CommitLog offset of its record ({@link #NO_ENTRY} if its entry was
     * unreadable) and its record when the selector already read it.
     */
    private record Claim(Delivery delivery, long physicalOffset, MessageRecordView record) {
    }

    /**
     * The CommitLog offset in the entry at a queue offset, from the batch's slice, which is read
     * again from there when it does not hold it; {@link #NO_ENTRY} when the entry cannot be read
     * (let the record read decide). When found, the slice holds the entry.
     */
    private long entryAt(String storageName, int queueId, long offset, Batch out) {
        if (out.entries == null) {
            out.entries = new ConsumeQueueSlice(SLICE_ENTRIES);
        }
        ConsumeQueueSlice entries = out.entries;
        if (out.entriesQueue != queueId || !entries.holds(offset)) {
            out.entriesQueue = -1;
            try {
                store.readQueue(storageName, queueId, offset, entries);
            } catch (RecordReadException e) {
                return NO_ENTRY;
            }
            out.entriesQueue = queueId;
        }
        return entries.holds(offset) ? entries.physicalOffset(offset) : NO_ENTRY;
    }

    /** The record at a CommitLog offset; null (logged) when it cannot be read, and the delivery is to be skipped. */
    private MessageRecordView readRecord(String storageName, int queueId, long offset, long physicalOffset) {
        if (physicalOffset == NO_ENTRY) {
            LOG.warn("{}/{} offset {}: no readable ConsumeQueue entry, skipping it", storageName, queueId, offset);
            return null;
        }
        try {
            recordsRead.increment();
            return store.read(physicalOffset);
        } catch (RecordReadException e) {
            LOG.warn("{}/{} offset {} is no longer in the store, skipping it: {}", storageName, queueId, offset,
                    e.toString());
            return null;
        }
    }

    /**
     * In memory only: after a restart a message gone to retention is gone again, and an expired
     * one expired still.
     */
    private static void ack(Subscription subscription, Delivery delivery) {
        subscription.withCursor(delivery.queueId(), cursor -> cursor.ack(delivery.offset()));
    }
}
