package io.ramjet.server.broker.subscription;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per-message consumption state of one subscription on one message queue (RocketMQ 5 "pop"
 * style): every offset below {@link #lowWater()} is acknowledged; offsets in
 * [{@code lowWater}, {@link #readOffset()}) are either acknowledged (absent) or pending (in flight
 * to a consumer, or visible again); offsets from {@code readOffset} on were never offered.
 *
 * <p>A message in flight belongs to its consumer until that consumer acknowledges or releases
 * it, a transaction takes it over, or the consumer is detached: no deadline takes it back while
 * the consumer's connection lives. Acknowledgements and releases from a client name the
 * consumer, and touch only what is in flight to it.
 *
 * <p>Delivery counts follow JMS: a delivery counts when the application may have seen the
 * message (a nack, a {@code recover()}, a rollback or a lost consumer); a release of a
 * prefetched message the application never saw does not count.
 *
 * <p>Each consumer has a scan floor: every pending offset below it is, for that consumer, in
 * flight or excluded. Offers start there, so a queue consumer whose selector excludes most
 * messages does not rescan them on every pull; an offset made visible again lowers every floor.
 *
 * <p>Not thread-safe: the owning subscription serialises every call. Nothing here is on disk; the
 * broker persists acknowledgements as CommitLog records and snapshots this state at checkpoints
 * ({@link #pendingOffsets()}, {@link #restore}).
 */
public final class QueueCursor {

    private final int queueId;
    private long lowWater;
    private long readOffset;
    private final NavigableMap<Long, PendingMessage> pending = new TreeMap<>();
    private final Map<Long, Long> scanFloors = new HashMap<>();

    public QueueCursor(int queueId, long startOffset) {
        this.queueId = queueId;
        this.lowWater = startOffset;
        this.readOffset = startOffset;
    }

    public int queueId() {
        return queueId;
    }

    /** Every offset below this one is acknowledged: storage may drop what only this cursor held. */
    public long lowWater() {
        return lowWater;
    }

    /** The first offset never offered to any consumer. */
    public long readOffset() {
        return readOffset;
    }

    public int pendingCount() {
        return pending.size();
    }

    public int inFlightCount() {
        int n = 0;
        for (PendingMessage m : pending.values()) {
            if (m.inFlight()) {
                n++;
            }
        }
        return n;
    }

    /**
     * The next offset that may be offered to {@code consumer}: the oldest visible pending message
     * it is not excluded from, else the read offset while it is below {@code maxOffset}, else -1.
     * Offering does not change state: follow with {@link #claim} or {@link #exclude}.
     */
    public long nextCandidate(long consumer, long maxOffset) {
        Long floor = scanFloors.get(consumer);
        for (PendingMessage m : floor == null ? pending.values() : pending.tailMap(floor, true).values()) {
            if (m.offerableTo(consumer)) {
                scanFloors.put(consumer, m.offset);
                return m.offset;
            }
        }
        scanFloors.put(consumer, readOffset);
        return readOffset < maxOffset ? readOffset : -1;
    }

    /**
     * Hands {@code offset} to {@code consumer}: it stays in flight to it until acknowledged,
     * released, or taken over by a transaction ({@link #transfer}); no deadline takes it back.
     */
    public Delivery claim(long offset, long consumer) {
        PendingMessage m = pendingOrNew(offset);
        if (m.inFlight()) {
            throw new IllegalStateException("offset " + offset + " of queue " + queueId + " is already in flight");
        }
        m.consumer = consumer;
        return new Delivery(queueId, offset, m.deliveries + 1);
    }

    /**
     * Marks {@code offset} as one {@code consumer} must not be offered again (a selector that
     * cannot match it), leaving it for the subscription's other consumers.
     */
    public void exclude(long offset, long consumer) {
        pendingOrNew(offset).exclude(consumer);
    }

    /** Acknowledges {@code offset}; acknowledging an offset that is not pending does nothing. */
    public boolean ack(long offset) {
        if (offset < lowWater) {
            return false;
        }
        if (offset >= readOffset) {
            // Acked without being claimed here: a skipped message (topic filter) or a replayed
            // ack record after restart. Everything between stays pending as visible.
            for (long o = readOffset; o < offset; o++) {
                pending.put(o, new PendingMessage(o, 0));
            }
            readOffset = offset + 1;
            advanceLowWater();
            return true;
        }
        boolean removed = pending.remove(offset) != null;
        advanceLowWater();
        return removed;
    }

    /**
     * Acknowledges {@code offset} if it is in flight to {@code consumer}; anything else (not
     * delivered, delivered to another, acknowledged already) is left alone.
     */
    public boolean ackDelivery(long offset, long consumer) {
        PendingMessage m = pending.get(offset);
        if (m == null || m.consumer != consumer) {
            return false;
        }
        pending.remove(offset);
        advanceLowWater();
        return true;
    }

    /** Moves {@code offset} from {@code from} to {@code to} if it is in flight to {@code from}. */
    public boolean transfer(long offset, long from, long to) {
        PendingMessage m = pending.get(offset);
        if (m == null || m.consumer != from) {
            return false;
        }
        m.consumer = to;
        return true;
    }

    /**
     * Makes {@code offset} visible again if it is in flight to {@code consumer}, counting a
     * delivery when the application may have seen it. Returns the number of counted deliveries
     * so far, or -1 if it was not in flight to that consumer.
     */
    public int release(long offset, long consumer, boolean countDelivery) {
        PendingMessage m = pending.get(offset);
        if (m == null || !m.inFlight() || m.consumer != consumer) {
            return -1;
        }
        m.makeVisible(countDelivery);
        lowerScanFloors(offset);
        return m.deliveries;
    }

    /** Releases, counting a delivery, everything a consumer holds (a lost client). */
    public List<Delivery> releaseAll(long consumer) {
        return releaseHeldBy(consumer, Set.of(), true);
    }

    /**
     * A consumer closes: what it holds and the application never saw ({@code kept} excepted)
     * becomes visible without counting a delivery; the kept offsets stay in flight to it.
     */
    public List<Delivery> releaseUnseen(long consumer, Set<Long> kept) {
        return releaseHeldBy(consumer, kept, false);
    }

    private List<Delivery> releaseHeldBy(long consumer, Set<Long> kept, boolean countDelivery) {
        List<Delivery> released = new ArrayList<>();
        for (PendingMessage m : pending.values()) {
            if (m.consumer == consumer && !kept.contains(m.offset)) {
                m.makeVisible(countDelivery);
                released.add(new Delivery(queueId, m.offset, m.deliveries));
            }
        }
        if (kept.isEmpty()) {
            scanFloors.remove(consumer);
        }
        if (!released.isEmpty()) {
            lowerScanFloors(released.get(0).offset());
        }
        return released;
    }

    /** What is left to consume below {@code maxOffset}, the end of the message queue. */
    public Backlog backlog(long maxOffset) {
        long inFlight = 0, redelivering = 0;
        for (PendingMessage m : pending.values()) {
            if (m.inFlight()) {
                inFlight++;
            } else if (m.deliveries > 0) {
                redelivering++;
            }
        }
        long ready = pending.size() - inFlight + Math.max(0, maxOffset - readOffset);
        return new Backlog(ready, inFlight, redelivering);
    }

    /**
     * Acknowledges everything below {@code maxOffset} that no consumer holds (an operator's
     * purge); what is in flight stays with its consumer.
     *
     * @return the offsets acknowledged, for the log
     */
    public List<Long> purge(long maxOffset) {
        List<Long> purged = new ArrayList<>();
        Iterator<PendingMessage> it = pending.values().iterator();
        while (it.hasNext()) {
            PendingMessage m = it.next();
            if (!m.inFlight()) {
                purged.add(m.offset);
                it.remove();
            }
        }
        for (; readOffset < maxOffset; readOffset++) {
            purged.add(readOffset);
        }
        advanceLowWater();
        return purged;
    }

    /**
     * Hands {@code offset} to {@code consumer} whether or not it is next (an operator's move
     * takes the messages it selected); skipped offsets become pending and visible.
     *
     * @return false when it is acknowledged or in flight already
     */
    public boolean take(long offset, long consumer) {
        if (!unacknowledged(offset)) {
            return false;
        }
        for (; readOffset < offset; readOffset++) {
            pending.put(readOffset, new PendingMessage(readOffset, 0));
        }
        PendingMessage m = pendingOrNew(offset);
        if (m.inFlight()) {
            return false;
        }
        m.consumer = consumer;
        return true;
    }

    /** Whether {@code offset} is still to be consumed: pending (visible or in flight) or never offered. */
    public boolean unacknowledged(long offset) {
        return offset >= lowWater && (offset >= readOffset || pending.containsKey(offset));
    }

    /** Counted deliveries of a pending offset, 0 when it is not pending. */
    public int deliveries(long offset) {
        PendingMessage m = pending.get(offset);
        return m == null ? 0 : m.deliveries;
    }

    /**
     * Pending offsets with their counted deliveries, oldest first: what a snapshot stores. A
     * message in flight is stored as it counts now: after a crash, {@link #possiblyDeliveredBelow}
     * counts a delivery for each one that counts none (its consumer may have seen it), and a
     * transaction that holds it again counts its delivery when it rolls back, once.
     */
    public List<long[]> pendingOffsets() {
        List<long[]> out = new ArrayList<>(pending.size());
        for (PendingMessage m : pending.values()) {
            out.add(new long[] {m.offset, m.deliveries});
        }
        return out;
    }

    /**
     * After a crash: every offset below {@code bound} may have been handed out after the
     * snapshot this cursor was restored from. Each never offered becomes pending with one counted
     * delivery, and each visible pending one that counts none gets one (it may have been claimed
     * again after the snapshot and seen): a message that may have been delivered says so. One
     * in flight (a prepared transaction holds it again) counts its delivery when released.
     *
     * @return how many offsets were counted
     */
    public int possiblyDeliveredBelow(long bound) {
        int n = 0;
        for (PendingMessage m : pending.headMap(Math.min(bound, readOffset), false).values()) {
            if (!m.inFlight() && m.deliveries == 0) {
                m.deliveries = 1;
                n++;
            }
        }
        for (; readOffset < bound; readOffset++) {
            pending.put(readOffset, new PendingMessage(readOffset, 1));
            n++;
        }
        advanceLowWater();
        return n;
    }

    /**
     * Rebuilds a cursor from a snapshot: everything below {@code lowWater} acknowledged, the listed
     * pending offsets visible with their counts, and everything else below {@code readOffset}
     * acknowledged.
     */
    public static QueueCursor restore(int queueId, long lowWater, long readOffset, List<long[]> pendingOffsets) {
        QueueCursor c = new QueueCursor(queueId, lowWater);
        c.readOffset = readOffset;
        for (long[] p : pendingOffsets) {
            c.pending.put(p[0], new PendingMessage(p[0], (int) p[1]));
        }
        c.advanceLowWater();
        return c;
    }

    /** Offsets from {@code offset} on may be offerable again to every consumer. */
    private void lowerScanFloors(long offset) {
        scanFloors.replaceAll((consumer, floor) -> Math.min(floor, offset));
    }

    private PendingMessage pendingOrNew(long offset) {
        if (offset < lowWater || offset > readOffset) {
            throw new IllegalArgumentException("offset " + offset + " is not offerable on queue " + queueId
                    + " (low water " + lowWater + ", read offset " + readOffset + ")");
        }
        if (offset == readOffset) {
            readOffset++;
            PendingMessage m = new PendingMessage(offset, 0);
            pending.put(offset, m);
            return m;
        }
        PendingMessage m = pending.get(offset);
        if (m == null) {
            throw new IllegalArgumentException("offset " + offset + " of queue " + queueId + " is already acknowledged");
        }
        return m;
    }

    private void advanceLowWater() {
        Iterator<Long> it = pending.keySet().iterator();
        lowWater = it.hasNext() ? it.next() : readOffset;
    }
}
