package io.ramjet.server.broker.delivery;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.storage.ConsumeQueueEntry;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.RecordReadException;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads one page of a queue for a browser, from the ConsumeQueues and the CommitLog, without
 * touching the queue's subscription: nothing is claimed, excluded, acknowledged or counted. A
 * message is listed while the subscription has not acknowledged it (pending, in flight or never
 * offered; every retained message when no consumer ever subscribed), unless it expired or the
 * browser's selector refuses it (by tag mask without reading the record, then exactly).
 * Message queues are walked one after another, each in offset order. Thread-safe; the
 * subscription's cursors are read under its lock, a chunk of entries at a time.
 */
public final class QueueBrowse {

    /** A page holds at most this many record bytes (or one larger record), so it fits in a frame as a message does. */
    public static final int PAGE_BYTES = 1 << 20;
    /** ConsumeQueue entries looked at per page, so a selective browser is answered promptly. */
    public static final int SCAN_BUDGET = 4096;
    private static final int READ_CHUNK = 256;

    /** One message of a page: its position, the count it would be delivered with, its record. */
    public record Browsed(int queueId, long offset, int deliveryCount, MessageRecordView record) {
    }

    /** A page and where the next one starts; {@code end} when every message queue is walked. */
    public record Page(List<Browsed> messages, int nextQueueId, long nextOffset, boolean end) {
    }

    private final MessageStore store;

    public QueueBrowse(MessageStore store) {
        this.store = store;
    }

    /**
     * Up to {@code max} messages from ({@code queueId}, {@code from}) on.
     *
     * @param subscription the queue's subscription, null when no consumer ever subscribed
     */
    public Page page(Destination queue, Subscription subscription, int queueId, long from, int max,
                     ConsumerSelector selector) {
        Budget budget = new Budget(max);
        int q = queueId;
        long offset = from;
        while (q < queue.queueCount() && !budget.spent()) {
            offset = scan(queue, subscription, q, offset, selector, budget);
            if (offset < 0) {
                q++;
                offset = 0;
            }
        }
        return new Page(budget.messages, q, offset, q >= queue.queueCount());
    }

    /** Adds what one message queue holds from {@code from} on; the offset to go on from, or -1 when done with it. */
    private long scan(Destination queue, Subscription subscription, int queueId, long from, ConsumerSelector selector,
                      Budget budget) {
        String storageName = queue.storageName();
        long max = store.maxQueueOffset(storageName, queueId);
        long offset = Math.max(from, store.minQueueOffset(storageName, queueId));
        if (subscription != null) {
            offset = Math.max(offset, subscription.withCursor(queueId, c -> c.lowWater()));
        }
        while (offset < max && !budget.spent()) {
            List<ConsumeQueueEntry> entries = readQueue(storageName, queueId, offset,
                    (int) Math.min(READ_CHUNK, max - offset));
            if (entries.isEmpty()) {
                return -1;
            }
            int[] deliveries = unacknowledged(subscription, queueId, entries);
            for (int i = 0; i < entries.size() && !budget.spent(); i++) {
                ConsumeQueueEntry entry = entries.get(i);
                if (!budget.fits(entry.size())) {
                    return entry.queueOffset();
                }
                offset = entry.queueOffset() + 1;
                budget.scanned++;
                if (deliveries[i] >= 0 && selector.mayMatch(entry.tagSignature())) {
                    add(queueId, entry, deliveries[i] + 1, selector, budget);
                }
            }
        }
        return offset < max ? offset : -1;
    }

    private List<ConsumeQueueEntry> readQueue(String storageName, int queueId, long from, int max) {
        try {
            return store.readQueue(storageName, queueId, from, max);
        } catch (RecordReadException e) {
            return List.of();
        }
    }

    /** Per entry, its counted deliveries when the subscription still has it to consume, else -1. */
    private static int[] unacknowledged(Subscription subscription, int queueId, List<ConsumeQueueEntry> entries) {
        int[] out = new int[entries.size()];
        if (subscription == null) {
            return out;
        }
        return subscription.withCursor(queueId, cursor -> {
            for (int i = 0; i < out.length; i++) {
                long offset = entries.get(i).queueOffset();
                out[i] = cursor.unacknowledged(offset) ? cursor.deliveries(offset) : -1;
            }
            return out;
        });
    }

    private void add(int queueId, ConsumeQueueEntry entry, int deliveryCount, ConsumerSelector selector,
                     Budget budget) {
        MessageRecordView record;
        try {
            record = store.read(entry.physicalOffset());
        } catch (RecordReadException e) {
            return;
        }
        long expiration = MessagePropertiesCodec.expiration(record.properties());
        if (expiration != 0 && expiration <= System.currentTimeMillis()) {
            return;
        }
        if (!selector.matches(record, deliveryCount)) {
            return;
        }
        budget.messages.add(new Browsed(queueId, entry.queueOffset(), deliveryCount, record));
        budget.bytes += record.buffer().remaining();
    }

    /** What one page may still take. */
    private static final class Budget {
        final int maxMessages;
        final List<Browsed> messages = new ArrayList<>();
        long bytes;
        int scanned;

        Budget(int maxMessages) {
            this.maxMessages = maxMessages;
        }

        boolean spent() {
            return messages.size() >= maxMessages || bytes >= PAGE_BYTES || scanned >= SCAN_BUDGET;
        }

        /** Whether a record of {@code size} bytes may join the page: the first always does, so a page is never empty for size. */
        boolean fits(int size) {
            return messages.isEmpty() || bytes + size <= PAGE_BYTES;
        }
    }
}
