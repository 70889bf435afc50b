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
 * prefetched message the application never saw does not count. A message a transaction named
 * as consumed was seen ({@link #seen}): ending that delivery counts it, however it ends, so a
 * client that lost track of it (its rollback unanswered) cannot give it back as never seen.
 *
 * <p>Each consumer has a scan floor: every pending offset below it is, for that consumer, in
 * flight or excluded. Offers start there, so a queue consumer whose selector excludes most
 * messages does not rescan them on every pull; an offset made visible again lowers every floor.
 *
 * <p>Representation: the pending offsets, those in flight, and each consumer's exclusions are
 * {@link OffsetBits}, so a message that is only pending (visible, never delivered, its group not
 * read), as most refused by a selector are, costs a bit and no object, and the next candidate
 * for a consumer is found 64 offsets a step (pending, not in flight, not excluded). A pending
 * message with more to remember (in flight, counted deliveries, a group) also has a
 * {@link PendingMessage}.
 *
 * <p>Message groups: a pending message remembers its {@link GroupTag} once the broker read it, and
 * the cursor's {@link MessageGroups} say who owns each group; {@link #admit} applies their rules
 * and {@link #pass} leaves a message another consumer's group holds for later, without
 * excluding it. Messages claimed without a tag ({@link #claim(long, long)}) are outside the
 * groups' accounting.
 *
 * <p>Not thread-safe: the owning subscription serialises every call. Nothing here is on disk; the
 * broker persists acknowledgements as CommitLog records and snapshots this state at checkpoints
 * ({@link #pendingRuns()}, {@link #restore}).
 */
public final class QueueCursor {

    private final int queueId;
    private long lowWater;
    private long readOffset;
    private final OffsetBits pending = new OffsetBits();
    private final OffsetBits inFlight = new OffsetBits();
    /** The pending messages with more to remember than their offset; the others are bits only. */
    private final NavigableMap<Long, PendingMessage> states = new TreeMap<>();
    private final Map<Long, Scan> scans = new HashMap<>();
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
        return (int) pending.size();
    }

    public int inFlightCount() {
        return (int) inFlight.size();
    }

    /** One consumer's scan: its floor and the offsets it must not be offered. */
    private static final class Scan {
        /** Every pending offset below it is, for this consumer, in flight or excluded; -1 for none. */
        long floor = -1;
        final OffsetBits excluded = new OffsetBits();
    }

    private Scan scanOf(long consumer) {
        return scans.computeIfAbsent(consumer, c -> new Scan());
    }

    private boolean excludes(long consumer, long offset) {
        Scan scan = scans.get(consumer);
        return scan != null && scan.excluded.contains(offset);
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
        Scan scan = scans.get(consumer);
        long floor = scan == null ? -1 : scan.floor;
        boolean fromFloor = from < 0 || skipPassed || (floor >= 0 && from <= floor);
        long start = floor < 0 ? from : Math.max(floor, from);
        long offerable = pending.nextMember(start, readOffset, inFlight, scan == null ? null : scan.excluded);
        if (fromFloor) {
            (scan == null ? scanOf(consumer) : scan).floor = offerable >= 0 ? offerable : readOffset;
        }
        if (offerable >= 0) {
            return offerable;
        }
        return readOffset < maxOffset ? readOffset : -1;
    }

    /** The group of a pending offset as read before, or null when it was never read (or is not pending). */
    public GroupTag groupOf(long offset) {
        PendingMessage m = stateOf(offset);
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
        boolean isPending = pending.contains(offset);
        return groups.admit(tag.id(), consumer, owner -> isPending && excludes(owner, offset), now, policy);
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
        inFlight.add(offset);
        return new Delivery(queueId, offset, m.nextDeliveryCount(), m.deliveries);
    }

    /**
     * As {@link #claim(long, long)} for a message of group {@code tag} that {@link #admit} let
     * {@code consumer} take: the group counts it in flight, and a free group becomes the consumer's.
     */
    public Delivery claim(long offset, long consumer, GroupTag tag, long now, MessageGroupPolicy policy) {
        Delivery d = claim(offset, consumer);
        PendingMessage m = states.get(offset);
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
        PendingMessage m = stateOf(offset);
        makePending(offset);
        scanOf(consumer).excluded.add(offset);
        if (m != null && m.group != null && m.group.grouped()) {
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
            pending.addRange(readOffset, offset);
            readOffset = offset + 1;
            advanceLowWater();
            return true;
        }
        boolean wasPending = pending.remove(offset);
        PendingMessage removed = states.remove(offset);
        if (removed != null && removed.inFlight()) {
            inFlight.remove(offset);
            endInFlight(removed);
        }
        advanceLowWater();
        return wasPending;
    }

    /**
     * Acknowledges {@code offset} if it is in flight to {@code consumer}; anything else (not
     * delivered, delivered to another, acknowledged already) is left alone.
     */
    public boolean ackDelivery(long offset, long consumer) {
        PendingMessage m = states.get(offset);
        if (m == null || !m.inFlight() || m.consumer != consumer) {
            return false;
        }
        pending.remove(offset);
        states.remove(offset);
        inFlight.remove(offset);
        endInFlight(m);
        advanceLowWater();
        return true;
    }

    /**
     * Moves {@code offset} from {@code from} to {@code to} if it is in flight to {@code from}; it is
     * not {@link #seen} by its new holder until marked so.
     */
    public boolean transfer(long offset, long from, long to) {
        PendingMessage m = states.get(offset);
        if (m == null || !m.inFlight() || m.consumer != from) {
            return false;
        }
        m.consumer = to;
        m.seen = false;
        return true;
    }

    /**
     * The application of {@code consumer} was given {@code offset}, if it is in flight to that
     * consumer: ending this delivery counts it. Returns whether it was in flight to it.
     */
    public boolean seen(long offset, long consumer) {
        PendingMessage m = states.get(offset);
        if (m == null || !m.inFlight() || m.consumer != consumer) {
            return false;
        }
        m.seen = true;
        return true;
    }

    /**
     * Makes {@code offset} visible again if it is in flight to {@code consumer}, counting a
     * delivery when the application may have seen it. Returns the number of counted deliveries
     * so far, or -1 if it was not in flight to that consumer.
     */
    public int release(long offset, long consumer, boolean countDelivery) {
        PendingMessage m = states.get(offset);
        if (m == null || !m.inFlight() || m.consumer != consumer) {
            return -1;
        }
        makeVisible(m, countDelivery);
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
        for (PendingMessage m : states.values()) {
            if (m.inFlight() && m.consumer == consumer && !kept.contains(m.offset)) {
                makeVisible(m, countDelivery);
                endInFlight(m);
                released.add(new Delivery(queueId, m.offset, m.deliveries));
            }
        }
        if (groups.ownerLeft(consumer)) {
            lowerScanFloors(lowWater);
        }
        if (kept.isEmpty()) {
            scans.remove(consumer);
        }
        if (!released.isEmpty()) {
            lowerScanFloors(released.get(0).offset());
        }
        return released;
    }

    /** The messages in flight to one consumer: how many, and the lowest and highest offsets among them. */
    public record InFlightSpan(int count, long first, long last) {

        InFlightSpan with(long offset) {
            return new InFlightSpan(count + 1, Math.min(first, offset), Math.max(last, offset));
        }
    }

    /** Per consumer holding messages of this queue, what it holds; for operators, not the message path. */
    public Map<Long, InFlightSpan> inFlightByConsumer() {
        Map<Long, InFlightSpan> spans = new TreeMap<>();
        for (PendingMessage m : states.values()) {
            if (m.inFlight()) {
                spans.merge(m.consumer, new InFlightSpan(1, m.offset, m.offset),
                        (a, b) -> a.with(b.first()));
            }
        }
        return spans;
    }

    /** The lowest pending offset no consumer holds, -1 for none. */
    public long firstVisible() {
        return pending.nextMember(lowWater, readOffset, inFlight, null);
    }

    /**
     * Where offers to {@code consumer} start looking: every visible pending offset below it is, for
     * it, excluded or taken; -1 when it has no scan yet.
     */
    public long scanFloor(long consumer) {
        Scan scan = scans.get(consumer);
        return scan == null ? -1 : scan.floor;
    }

    /** What is left to consume below {@code maxOffset}, the end of the message queue. */
    public Backlog backlog(long maxOffset) {
        long redelivering = 0;
        for (PendingMessage m : states.values()) {
            if (!m.inFlight() && (m.deliveries > 0 || m.possiblyDelivered)) {
                redelivering++;
            }
        }
        long ready = pending.size() - inFlight.size() + Math.max(0, maxOffset - readOffset);
        return new Backlog(ready, inFlight.size(), redelivering);
    }

    /**
     * Acknowledges everything below {@code maxOffset} that no consumer holds (an operator's
     * purge); what is in flight stays with its consumer.
     *
     * @return the offsets acknowledged, for the log
     */
    public List<Long> purge(long maxOffset) {
        List<Long> purged = new ArrayList<>();
        for (long o = pending.nextMember(0, readOffset, inFlight, null); o >= 0;
                o = pending.nextMember(o + 1, readOffset, inFlight, null)) {
            purged.add(o);
            pending.remove(o);
            states.remove(o);
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
        pending.addRange(readOffset, offset);
        readOffset = Math.max(readOffset, offset);
        PendingMessage m = pendingOrNew(offset);
        if (m.inFlight()) {
            return false;
        }
        m.consumer = consumer;
        inFlight.add(offset);
        return true;
    }

    /** Whether {@code offset} is still to be consumed: pending (visible or in flight) or never offered. */
    public boolean unacknowledged(long offset) {
        return offset >= lowWater && (offset >= readOffset || pending.contains(offset));
    }

    /**
     * Earlier deliveries of a pending offset as JMS shows them (its next JMSXDeliveryCount less
     * one: at least one once it may have been delivered), 0 when it is not pending.
     */
    public int deliveries(long offset) {
        PendingMessage m = stateOf(offset);
        return m == null ? 0 : m.nextDeliveryCount() - 1;
    }

    /**
     * Pending offsets with their counted deliveries, oldest first, in runs of consecutive offsets
     * that count the same, each {first offset, offsets, deliveries}: what a snapshot stores;
     * deliveries is {@link #POSSIBLY_DELIVERED} for one that counts none but may have been
     * delivered before a crash. A message in flight is stored as it counts now: after a crash,
     * {@link #possiblyDeliveredBelow} flags each one that counts none (its consumer may have seen
     * it), and a transaction that holds it again counts its delivery when it rolls back, once.
     */
    public List<long[]> pendingRuns() {
        List<long[]> runs = new ArrayList<>();
        Iterator<PendingMessage> remembered = states.values().iterator();
        PendingMessage next = remembered.hasNext() ? remembered.next() : null;
        long[] run = null;
        for (long o = pending.nextMember(0); o >= 0; o = pending.nextMember(o + 1)) {
            while (next != null && next.offset < o) {
                next = remembered.hasNext() ? remembered.next() : null;
            }
            int deliveries = next != null && next.offset == o ? storedDeliveries(next) : 0;
            if (run != null && run[0] + run[1] == o && run[2] == deliveries && run[1] < Integer.MAX_VALUE) {
                run[1]++;
            } else {
                run = new long[] {o, 1, deliveries};
                runs.add(run);
            }
        }
        return runs;
    }

    /** A snapshot run's deliveries for messages that count none but may have been delivered before a crash. */
    public static final int POSSIBLY_DELIVERED = -1;

    private static int storedDeliveries(PendingMessage m) {
        return m.possiblyDelivered && m.deliveries == 0 ? POSSIBLY_DELIVERED : m.deliveries;
    }

    /**
     * After a crash: every offset below {@code bound} may have been handed out after the
     * snapshot this cursor was restored from, and the broker cannot tell which were. Each never
     * offered becomes pending, and each visible pending one that counts none stays so, flagged
     * as possibly delivered: its next delivery carries JMSRedelivered (and a JMSXDeliveryCount of
     * 2, as the flag requires), but no delivery is counted towards the dead-letter limit, so
     * crashes in a row never use up a message's deliveries. One in flight (a prepared
     * transaction holds it again) counts its delivery when released.
     *
     * @return how many offsets were flagged
     */
    public int possiblyDeliveredBelow(long bound) {
        int n = 0;
        long below = Math.min(bound, readOffset);
        for (long o = pending.nextMember(0, below, null, null); o >= 0; o = pending.nextMember(o + 1, below, null, null)) {
            PendingMessage m = states.get(o);
            if (m == null) {
                states.put(o, possiblyDelivered(o));
                n++;
            } else if (!m.inFlight() && m.deliveries == 0 && !m.possiblyDelivered) {
                m.possiblyDelivered = true;
                n++;
            }
        }
        for (; readOffset < bound; readOffset++) {
            pending.add(readOffset);
            states.put(readOffset, possiblyDelivered(readOffset));
            n++;
        }
        advanceLowWater();
        return n;
    }

    private static PendingMessage possiblyDelivered(long offset) {
        PendingMessage m = new PendingMessage(offset, 0);
        m.possiblyDelivered = true;
        return m;
    }

    /**
     * Rebuilds a cursor from a snapshot: everything below {@code lowWater} acknowledged, the
     * pending offsets of the listed runs ({@link #pendingRuns()}) visible with their counts, and
     * everything else below {@code readOffset} acknowledged.
     */
    public static QueueCursor restore(int queueId, long lowWater, long readOffset, List<long[]> pendingRuns) {
        QueueCursor c = new QueueCursor(queueId, lowWater);
        c.readOffset = readOffset;
        for (long[] run : pendingRuns) {
            for (long o = run[0]; o < run[0] + run[1]; o++) {
                c.pending.add(o);
                if (run[2] == POSSIBLY_DELIVERED) {
                    c.states.put(o, possiblyDelivered(o));
                } else if (run[2] != 0) {
                    c.states.put(o, new PendingMessage(o, (int) run[2]));
                }
            }
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
        for (Scan scan : scans.values()) {
            if (scan.floor >= 0) {
                scan.floor = Math.min(scan.floor, offset);
            }
        }
    }

    /**
     * Ends a delivery, counted when asked or when the message was {@link #seen}. A counted one
     * changes the message's JMSXDeliveryCount, which a selector may name, so the consumers that
     * refused it are asked again.
     */
    private void makeVisible(PendingMessage m, boolean countDelivery) {
        boolean counted = m.counts(countDelivery);
        m.makeVisible(counted);
        inFlight.remove(m.offset);
        if (counted) {
            for (Scan scan : scans.values()) {
                scan.excluded.remove(m.offset);
            }
        }
    }

    /** Makes {@code offset} pending if it is the read offset; checks that it is pending. */
    /**
     * The state of a pending offset, null for none. An offset from {@link #readOffset} on was
     * never offered, so it has none: a selector's scan of new messages asks for each one, and
     * spares the map lookup.
     */
    private PendingMessage stateOf(long offset) {
        return offset >= readOffset ? null : states.get(offset);
    }

    private void makePending(long offset) {
        if (offset < lowWater || offset > readOffset) {
            throw new IllegalArgumentException("offset " + offset + " is not offerable on queue " + queueId
                    + " (low water " + lowWater + ", read offset " + readOffset + ")");
        }
        if (offset == readOffset) {
            readOffset++;
            pending.add(offset);
        } else if (!pending.contains(offset)) {
            throw new IllegalArgumentException("offset " + offset + " of queue " + queueId + " is already acknowledged");
        }
    }

    /** The state of a pending offset, made pending if it is the read offset and remembered from now on. */
    private PendingMessage pendingOrNew(long offset) {
        makePending(offset);
        PendingMessage m = states.get(offset);
        if (m == null) {
            m = new PendingMessage(offset, 0);
            states.put(offset, m);
        }
        return m;
    }

    private void advanceLowWater() {
        long first = pending.first();
        long before = lowWater;
        lowWater = first >= 0 ? first : readOffset;
        if (lowWater / OffsetBits.CHUNK_BITS != before / OffsetBits.CHUNK_BITS) {
            for (Scan scan : scans.values()) {
                scan.excluded.removeChunksBelow(lowWater);
            }
        }
    }
}
