package io.ramjet.server.broker.retention;

import io.ramjet.model.DestinationKind;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.large.LargeMessages;
import io.ramjet.server.broker.large.OpenUploads;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.transaction.TransactionTable;
import io.ramjet.storage.ConsumeQueueEntry;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.RecordReadException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Lets the store delete CommitLog segments nobody needs: below the oldest message that a
 * subscription has not acknowledged (its cursor's low-water mark), that a queue nobody has
 * subscribed to yet still holds, that a pending timer will copy, or that a transaction holds:
 * the half records of open and prepared ones, and committed halves whose entries may still be
 * above a low-water mark (see {@link TransactionTable#oldestNeeded}). A topic message no
 * subscription needs is not kept. The store itself keeps what its checkpoint and dispatcher
 * need, which covers the broker's own records after the snapshot. A large message needs the CommitLog
 * from its first chunk on ({@link LargeMessages#firstNeeded}), and so does a large send still
 * uploading ({@link OpenUploads}). Run periodically.
 */
public final class RetentionScanner implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(RetentionScanner.class);

    private final MessageStore store;
    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final DelayedMessages delayed;
    private final TransactionTable transactions;
    private final LargeMessages large;
    private final OpenUploads uploads;

    public RetentionScanner(MessageStore store, DestinationTable destinations, SubscriptionTable subscriptions,
                            DelayedMessages delayed, TransactionTable transactions, LargeMessages large,
                            OpenUploads uploads) {
        this.large = large;
        this.uploads = uploads;
        this.transactions = transactions;
        this.store = store;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.delayed = delayed;
    }

    @Override
    public void run() {
        try {
            int deleted = store.deleteSegmentsBelow(oldestNeeded());
            if (deleted > 0) {
                LOG.info("retention deleted {} CommitLog segments", deleted);
            }
        } catch (RuntimeException e) {
            LOG.error("retention scan failed", e);
        }
    }

    /** The lowest CommitLog offset something still needs; the write position when nothing does. */
    public long oldestNeeded() {
        long oldest = store.maxPhysicalOffset();
        for (Destination d : destinations.list()) {
            List<Subscription> readers = subscriptions.of(d.name()).stream()
                    .filter(s -> s.key().destinationKind() == d.kind())
                    .toList();
            boolean unsubscribedQueue = d.kind() == DestinationKind.QUEUE
                    && readers.stream().noneMatch(s -> s.key().kind() == SubscriptionKind.QUEUE);
            for (int q = 0; q < d.queueCount(); q++) {
                if (unsubscribedQueue) {
                    oldest = Math.min(oldest, physicalOffset(d, q, store.minQueueOffset(d.storageName(), q)));
                }
                for (Subscription s : readers) {
                    if (q < s.queueCount()) {
                        long lowWater = s.withCursor(q, cursor -> cursor.lowWater());
                        oldest = Math.min(oldest, physicalOffset(d, q, lowWater));
                    }
                }
            }
        }
        long halves = transactions.oldestNeeded(oldest);
        oldest = halves < oldest ? Math.min(halves, large.firstNeeded(halves)) : oldest;
        for (DelayedMessages.Timer t : delayed.pending()) {
            oldest = Math.min(oldest, large.firstNeeded(t.physicalOffset()));
        }
        return uploads.oldestNeeded(oldest);
    }

    private long physicalOffset(Destination d, int queueId, long queueOffset) {
        try {
            List<ConsumeQueueEntry> entries = store.readQueue(d.storageName(), queueId, queueOffset, 1);
            return entries.isEmpty() ? Long.MAX_VALUE : large.firstNeeded(entries.get(0).physicalOffset());
        } catch (RecordReadException gone) {
            return Long.MAX_VALUE;
        }
    }
}
