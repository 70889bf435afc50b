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
 * <p>Message groups: a pending message remembers its {@link GroupTag} once the broker read it, and
 * the cursor's {@link MessageGroups} say who owns each group; {@link #admit} applies their rules
 * and {@link #pass} leaves a message another consumer's group holds for later, without
 * excluding it. Messages claimed without a tag ({@link #claim(long, long)}) are outside the
 * groups' accounting.
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
    private final MessageGroups groups = new MessageGroups();
    private boolean groupFreed;
    private long idleRevisitAt;

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
     * Offering does not change state: follow with {@link #claim}, {@link #exclude} or {@link #pass}.
     */
    public long nextCandidate(long consumer, long maxOffset) {
        return nextCandidate(consumer, maxOffset, -1, false);
    }

    /**
     * As {@link #nextCandidate(long, long)}, from {@code from} on: the offsets below it were
     * {@link #pass passed} in this fetch. The consumer's scan floor moves past them only when
     * {@code skipPassed} says they wait for another consumer's group: freeing a group lowers every
     * floor again. Otherwise (passed for a reason of this fetch) it stays, and they are looked at
     * again on the next fetch.
     */
    public long nextCandidate(long consumer, long maxOffset, long from, boolean skipPassed) {
        Long floor = scanFloors.get(consumer);
        boolean fromFloor = from < 0 || skipPassed || (floor != null && from <= floor);
        long start = floor == null ? from : Math.max(floor, from);
        for (PendingMessage m : pending.tailMap(start, true).values()) {
            if (m.offerableTo(consumer)) {
                if (fromFloor) {
                    scanFloors.put(consumer, m.offset);
                }
                return m.offset;
            }
        }
        if (fromFloor) {
            scanFloors.put(consumer, readOffset);
        }
        return readOffset < maxOffset ? readOffset : -1;
    }

    /** The group of a pending offset as read before, or null when it was never read (or is not pending). */
    public GroupTag groupOf(long offset) {
        PendingMessage m = pending.get(offset);
        return m == null ? null : m.group;
    }

    /**
     * Whether {@code consumer} may take {@code offset}, of group {@code tag}, now (see
     * {@link MessageGroups}): REFUSED, HELD (it owns the group), or NEW (it would own it).
     */
    public GroupAdmission admit(long offset, GroupTag tag, long consumer, long now, MessageGroupPolicy policy) {
        if (!tag.grouped()) {
            return GroupAdmission.HELD;
        }
        PendingMessage m = pending.get(offset);
        return groups.admit(tag.id(), consumer, owner -> m != null && m.excludes(owner), now, policy);
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
     * As {@link #claim(long, long)} for a message of group {@code tag} that {@link #admit} let
     * {@code consumer} take: the group counts it in flight, and a free group becomes the consumer's.
     */
    public Delivery claim(long offset, long consumer, GroupTag tag, long now, MessageGroupPolicy policy) {
        Delivery d = claim(offset, consumer);
        PendingMessage m = pending.get(offset);
        m.group = tag;
        if (tag.grouped()) {
            groups.claimed(tag, consumer, now, policy);
            m.countedInGroup = true;
        }
        return d;
    }

    /**
     * Leaves {@code offset}, of group {@code tag}, for another consumer's group: it stays visible,
     * not excluded, and remembers its group so the next look needs no record read.
     */
    public void pass(long offset, GroupTag tag) {
        pendingOrNew(offset).group = tag;
    }

    /**
     * Whether a message group of this queue became free since the last call (its last message in
     * flight was acknowledged after its owner left or closed it): held pulls may take it now.
     */
    public boolean takeGroupFreed() {
        boolean freed = groupFreed;
        groupFreed = false;
        return freed;
    }

    /** Frees every group of this queue (a consumer joined and groups are rebalanced). */
    public void releaseGroupOwners() {
        groups.releaseOwners();
        lowerScanFloors(lowWater);
    }

    /** How many message groups of this queue {@code consumer} owns. */
    public int groupsOwnedBy(long consumer) {
        return groups.ownedBy(consumer);
    }

    /**
     * Marks {@code offset} as one {@code consumer} must not be offered again (a selector that
     * cannot match it), leaving it for the subscription's other consumers.
     */
    public void exclude(long offset, long consumer) {
        PendingMessage m = pendingOrNew(offset);
        m.exclude(consumer);
        if (m.group != null && m.group.grouped()) {
            lowerScanFloors(offset); // the group's owner refused it: another consumer may take it
        }
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
        PendingMessage removed = pending.remove(offset);
        if (removed != null && removed.inFlight()) {
            endInFlight(removed);
        }
        advanceLowWater();
        return removed != null;
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
        endInFlight(m);
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
        endInFlight(m);
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
                endInFlight(m);
                released.add(new Delivery(queueId, m.offset, m.deliveries));
            }
        }
        if (groups.ownerLeft(consumer)) {
            lowerScanFloors(lowWater);
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

    /** A message of a group left flight: the group may become free, and lasts from now. */
    private void endInFlight(PendingMessage m) {
        if (m.countedInGroup) {
            m.countedInGroup = false;
            if (groups.ended(m.group.id(), System.currentTimeMillis())) {
                groupFreed = true;
                lowerScanFloors(lowWater);
            }
        }
    }

    /**
     * Groups that went idle free themselves without an event: at most twice per idle timeout,
     * every consumer's scan looks again at the messages it skipped for other consumers' groups.
     */
    public void revisitIdleGroups(long now, MessageGroupPolicy policy) {
        long idle = policy.idleMillis();
        if (idle != Long.MAX_VALUE && now - idleRevisitAt >= Math.max(1, idle / 2)) {
            idleRevisitAt = now;
            lowerScanFloors(lowWater);
        }
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
