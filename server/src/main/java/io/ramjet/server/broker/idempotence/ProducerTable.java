package io.ramjet.server.broker.idempotence;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The duplicate table of the idempotent producers: for each producer id, the last message this
 * broker stored from it. The rule: a message from a producer is stored only if its sequence is
 * above that last one's; an equal or lower sequence is a resend of a message already stored.
 * This holds because a producer numbers its messages 1, 2, ... and its client sends them to one
 * broker group, resends included, in that order (the client's contract).
 *
 * <p>Two sources feed it. The dispatch of every record that names a producer ({@link #onRecord}),
 * live, during recovery and on a slave: that alone decides what the table holds, so a broker
 * recovering after {@code kill -9} and a slave that dispatched the replicated log hold the same
 * producers. And the SEND processor's own appends ({@link #appended}), held apart until their record
 * is dispatched, so a resend that arrives between a message's append and its dispatch is still
 * recognised.
 *
 * <p>Expiry follows the log, not the wall clock, so every broker of a group forgets the same
 * producers: each dispatched record forgets the producers whose last record was stored more than
 * {@link ProducerTableConfig#idleExpiry()} before it, then the longest idle beyond
 * {@link ProducerTableConfig#maxProducers()}.
 *
 * <p>The snapshot ({@link #save}) holds what the log below its position says: a producer's last
 * record above the position (dispatched, perhaps not yet forced, so perhaps lost in a crash) is
 * replaced by the one before it, when that one lies below; a producer with its last two records
 * above the position is left to the replay of the log. Thread-safe: the threads that run SEND, the
 * dispatcher and the checkpoint call it.
 *
 * <p>A FENCE record raises a producer's last sequence without storing a message: the answer to
 * another group that keeps a parked copy of that message ({@link #holding}). The entry keeps the
 * highest sequence stored as a message beside it ({@link StoredSend#heldUpTo}), so the same
 * question asked again gets the same answer.
 */
public final class ProducerTable {

    /** Locks over the producers' checks and appends; a power of two. */
    private static final int LOCKS = 64;

    /** What this broker holds of one sequence of a producer, for a copy of it parked on another group. */
    public enum Holding {
        /** Stored here as a message (its copy here is delivered). */
        HELD,
        /** Fenced here already: never stored, and a resend of it is taken as a duplicate. */
        FENCED,
        /** Neither: a fence is to be written before the answer. */
        UNKNOWN
    }

    /** A producer's last dispatched message and the one it followed, if any. */
    private record Entry(StoredSend last, StoredSend previous) {
    }

    private final ProducerTableConfig config;
    /** Producers in the order of their last dispatched message, oldest first. */
    private final LinkedHashMap<Long, Entry> dispatched = new LinkedHashMap<>();
    /** Per producer, its newest message appended by the SEND processor and not yet dispatched. */
    private final Map<Long, StoredSend> appended = new HashMap<>();
    private final LongAdder duplicates = new LongAdder();
    private final Object[] locks = new Object[LOCKS];

    public ProducerTable(ProducerTableConfig config) {
        this.config = config;
        Arrays.setAll(locks, i -> new Object());
    }

    /**
     * The lock under which a producer's check ({@link #resendOf}, {@link #holding}) and the append
     * it allows are one step: one of a few, shared by the producers that hash to it.
     */
    public Object lockOf(long producerId) {
        return locks[Long.hashCode(producerId) & (locks.length - 1)];
    }

    /**
     * What this broker holds of message {@code sequence} of {@code producerId}: held when a
     * message at or above it was stored (a producer's messages reach a group in order), fenced
     * when a fence covers it, else unknown. Call under {@link #lockOf} with the fence it leads to.
     */
    public synchronized Holding holding(long producerId, long sequence) {
        StoredSend last = last(producerId);
        if (last == null || sequence > last.sequence()) {
            return Holding.UNKNOWN;
        }
        return sequence <= last.heldUpTo() ? Holding.HELD : Holding.FENCED;
    }

    /** The record the answer of {@link #holding} rests on (the producer's last), if any. */
    public synchronized Optional<StoredSend> lastOf(long producerId) {
        return Optional.ofNullable(last(producerId));
    }

    /**
     * The last message stored from {@code producerId} when {@code sequence} is not above its
     * sequence, i.e. when the message is a resend of one stored; counted as a duplicate. Empty
     * when the message is to be stored.
     */
    public synchronized Optional<StoredSend> resendOf(long producerId, long sequence) {
        StoredSend last = last(producerId);
        if (last == null || sequence > last.sequence()) {
            return Optional.empty();
        }
        duplicates.increment();
        return Optional.of(last);
    }

    /**
     * The SEND processor appended {@code send}; its record is not dispatched yet. Called under the
     * producer's lock with the {@link #resendOf} that let it be stored, so one producer's calls come in sequence order.
     */
    public synchronized void appended(StoredSend send) {
        appended.put(send.producerId(), send);
    }

    /** A record dispatched (live, recovering, or replicated); records that name no producer change nothing. */
    public synchronized void onRecord(MessageRecordView record) {
        if (!record.hasProducer()) {
            return;
        }
        long heldUpTo = record.type() == RecordType.FENCE ? FenceRecord.heldUpTo(record) : record.sequence();
        StoredSend send = new StoredSend(record.producerId(), record.sequence(), record.physicalOffset(),
                record.totalSize(), record.queueOffset(), record.storeTimestamp(), heldUpTo);
        Entry old = dispatched.remove(send.producerId());
        if (old == null || send.sequence() > old.last().sequence()) {
            dispatched.put(send.producerId(), new Entry(send, old == null ? null : old.last()));
        } else if (send.sequence() == old.last().sequence()) {
            dispatched.put(send.producerId(), new Entry(send, old.previous()));
        } else {
            dispatched.put(send.producerId(), old);
        }
        StoredSend pending = appended.get(send.producerId());
        if (pending != null && pending.physicalOffset() <= send.physicalOffset()) {
            appended.remove(send.producerId());
        }
        expire(send.storeTimestamp());
    }

    private StoredSend last(long producerId) {
        StoredSend pending = appended.get(producerId);
        if (pending != null) {
            return pending;
        }
        Entry entry = dispatched.get(producerId);
        return entry == null ? null : entry.last();
    }

    private void expire(long now) {
        long idleBefore = now - config.idleExpiry().toMillis();
        Iterator<Entry> oldest = dispatched.values().iterator();
        while (oldest.hasNext()) {
            Entry entry = oldest.next();
            if (entry.last().storeTimestamp() >= idleBefore && dispatched.size() <= config.maxProducers()) {
                return;
            }
            oldest.remove();
        }
    }

    /** Resends answered without storing, since the broker started. */
    public long duplicates() {
        return duplicates.sum();
    }

    /** Each remembered producer's last dispatched sequence. */
    public synchronized Map<Long, Long> sequences() {
        Map<Long, Long> sequences = new LinkedHashMap<>();
        dispatched.forEach((id, entry) -> sequences.put(id, entry.last().sequence()));
        return sequences;
    }

    /** What the log below {@code position} says of the producers, oldest first, for the snapshot. */
    public synchronized List<StoredSend> save(long position) {
        List<StoredSend> saved = new ArrayList<>(dispatched.size());
        for (Entry entry : dispatched.values()) {
            if (entry.last().endOffset() <= position) {
                saved.add(entry.last());
            } else if (entry.previous() != null && entry.previous().endOffset() <= position) {
                saved.add(entry.previous());
            }
        }
        return saved;
    }

    /** Loads a snapshot's producers, before any record is dispatched. */
    public synchronized void restore(List<StoredSend> saved) {
        dispatched.clear();
        for (StoredSend send : saved) {
            dispatched.put(send.producerId(), new Entry(send, null));
        }
    }
}
