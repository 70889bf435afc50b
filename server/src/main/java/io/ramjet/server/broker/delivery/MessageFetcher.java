package io.ramjet.server.broker.delivery;

import io.ramjet.protocol.message.TagSignature;
import io.ramjet.protocol.record.MessageRecordView;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.durability.DeliveryMarks;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.storage.ConsumeQueueEntry;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.RecordReadException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Claims messages of a subscription for one consumer: walks its message queues round-robin,
 * takes each cursor's next candidate, claims it until the visibility deadline and reads its
 * record. Along the way it acks away what can never be delivered (gone to retention, expired)
 * and hands what was delivered too often to the {@link DeadLetterQueue}. Thread-safe; cursors
 * are locked by their subscription.
 */
public final class MessageFetcher {

    private static final Logger LOG = LoggerFactory.getLogger(MessageFetcher.class);

    private final MessageStore store;
    private final DeadLetterQueue deadLetters;
    private final DeliveryMarks marks;
    private final long visibilityMillis;
    private final int maxDeliveries;
    private final AtomicInteger rotation = new AtomicInteger();
    private final LongAdder recordsRead;

    /** @param recordsRead counts every CommitLog record this fetcher reads: the cost tag filtering saves */
    public MessageFetcher(MessageStore store, DeadLetterQueue deadLetters, DeliveryMarks marks, long visibilityMillis,
                          int maxDeliveries, LongAdder recordsRead) {
        this.store = store;
        this.recordsRead = recordsRead;
        this.marks = marks;
        this.deadLetters = deadLetters;
        this.visibilityMillis = visibilityMillis;
        this.maxDeliveries = maxDeliveries;
    }

    /**
     * Up to {@code max} messages claimed for {@code consumer}; empty when nothing is offerable.
     * A message whose tag signature covers none of {@code tagMasks} (when there are any) is
     * never offered to the consumer: on a queue, whose consumers have selectors of their own,
     * another may take it; a topic subscription's one selector never will, so there it is
     * acknowledged.
     */
    public List<FetchedMessage> fetch(Destination destination, Subscription subscription, long consumer,
                                      long[] tagMasks, int max) {
        List<FetchedMessage> out = new ArrayList<>();
        int queues = subscription.queueCount();
        int start = Math.floorMod(rotation.getAndIncrement(), queues);
        for (int i = 0; i < queues && out.size() < max; i++) {
            int queueId = (start + i) % queues;
            fetchQueue(destination, subscription, queueId, consumer, tagMasks, max, out);
        }
        return out;
    }

    private void fetchQueue(Destination destination, Subscription subscription, int queueId, long consumer,
                            long[] tagMasks, int max, List<FetchedMessage> out) {
        String storageName = destination.storageName();
        long maxOffset = store.maxQueueOffset(storageName, queueId);
        long highest = -1;
        while (out.size() < max) {
            long deadline = System.currentTimeMillis() + visibilityMillis;
            Claim claim = subscription.withCursor(queueId, cursor -> {
                long candidate;
                while ((candidate = cursor.nextCandidate(consumer, maxOffset)) >= 0) {
                    ConsumeQueueEntry entry = entryAt(storageName, queueId, candidate);
                    if (mayMatch(entry, tagMasks)) {
                        return new Claim(cursor.claim(candidate, consumer, deadline), entry);
                    }
                    if (subscription.key().kind() == SubscriptionKind.QUEUE) {
                        cursor.exclude(candidate, consumer);
                    } else {
                        cursor.ack(candidate);
                    }
                }
                return null;
            });
            if (claim == null) {
                break;
            }
            Delivery delivery = claim.delivery();
            MessageRecordView record = readRecord(storageName, delivery, claim.entry());
            if (record == null || MessageExpiration.expired(record, System.currentTimeMillis())) {
                ack(subscription, delivery);
            } else if (delivery.deliveryCount() > maxDeliveries) {
                deadLetters.moveAndAck(destination, subscription, delivery, record);
            } else {
                highest = Math.max(highest, delivery.offset());
                out.add(new FetchedMessage(delivery, record));
            }
        }
        if (highest >= 0) {
            marks.claimed(subscription, queueId, highest);
        }
    }

    /** A claimed delivery and the ConsumeQueue entry it was claimed from (null if unreadable). */
    private record Claim(Delivery delivery, ConsumeQueueEntry entry) {
    }

    /** The entry at a queue offset, read once per candidate; null when it cannot be read (let the record read decide). */
    private ConsumeQueueEntry entryAt(String storageName, int queueId, long offset) {
        try {
            List<ConsumeQueueEntry> entries = store.readQueue(storageName, queueId, offset, 1);
            return entries.isEmpty() ? null : entries.get(0);
        } catch (RecordReadException e) {
            return null;
        }
    }

    /** Whether the entry's signature covers a mask; true without masks or without a readable entry. */
    private static boolean mayMatch(ConsumeQueueEntry entry, long[] tagMasks) {
        if (tagMasks.length == 0 || entry == null) {
            return true;
        }
        for (long mask : tagMasks) {
            if (TagSignature.mayMatch(entry.tagSignature(), mask)) {
                return true;
            }
        }
        return false;
    }

    private MessageRecordView readRecord(String storageName, Delivery delivery, ConsumeQueueEntry entry) {
        if (entry == null) {
            LOG.warn("{}/{} offset {}: no readable ConsumeQueue entry, skipping it", storageName, delivery.queueId(),
                    delivery.offset());
            return null;
        }
        try {
            recordsRead.increment();
            return store.read(entry.physicalOffset());
        } catch (RecordReadException e) {
            LOG.warn("{}/{} offset {} is no longer in the store, skipping it: {}", storageName, delivery.queueId(),
                    delivery.offset(), e.toString());
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
