package io.ramjet.controller;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which brokers heartbeat, as seen by this controller while it is the Ratis leader. Deliberately
 * not replicated: heartbeats arrive every few hundred milliseconds from every broker and would
 * flood the Raft log, while only the leader decides elections and writes its judgement into the
 * {@code Election} log entry it commits. A new leader starts with an empty table ({@link #restart})
 * and counts as a candidate only a broker it has heard itself.
 *
 * <p>A master is held alive for the lease ({@code brokerTimeout}) after its last heartbeat, and,
 * unless a replica of its group reports within the lease that it lost its connection to the
 * master of that epoch ({@link #masterLost}), for the longer {@code silentTimeout}: a killed
 * master is replaced as soon as its lease ends, while a live master whose heartbeats are late on
 * a loaded machine, and whose replicas still reach it, is not. Either way no master is replaced
 * before its lease ends, so a master that still believes it holds the lease is right. A new
 * leader counts its own start as the last heartbeat of every master. Thread-safe.
 */
final class Liveness {

    private record Key(String brokerName, long brokerId) {
    }

    private record Seen(long atNanos, long maxOffset) {
    }

    private record Lost(int epoch, long atNanos) {
    }

    private final Map<Key, Seen> seen = new ConcurrentHashMap<>();
    /** Broker name → the latest report of a replica that lost its master. */
    private final Map<String, Lost> lost = new ConcurrentHashMap<>();
    private final long leaseNanos;
    private final long silentNanos;
    private final LongSupplier nanoClock;
    private volatile long leaderSinceNanos;

    /**
     * @param lease         a master's lease: the silence after which a master a replica lost is replaced
     * @param silentTimeout the silence after which a master is replaced without such a report (at least the lease)
     */
    Liveness(Duration lease, Duration silentTimeout, LongSupplier nanoClock) {
        this.leaseNanos = lease.toNanos();
        this.silentNanos = Math.max(leaseNanos, silentTimeout.toNanos());
        this.nanoClock = nanoClock;
        this.leaderSinceNanos = nanoClock.getAsLong();
    }

    /** This controller has just become leader: forget what an earlier term heard. */
    void restart() {
        seen.clear();
        lost.clear();
        leaderSinceNanos = nanoClock.getAsLong();
    }

    void heard(String brokerName, long brokerId, long maxOffset) {
        seen.put(new Key(brokerName, brokerId), new Seen(nanoClock.getAsLong(), maxOffset));
    }

    /** A replica of {@code brokerName} reports its connection to the master of {@code epoch} lost. */
    void masterLost(String brokerName, int epoch) {
        lost.put(brokerName, new Lost(epoch, nanoClock.getAsLong()));
    }

    /**
     * True while master {@code masterId} of {@code epoch} has heartbeated (or this leader has stood)
     * within its lease, or within the silent timeout when no replica reported it lost.
     */
    boolean masterMayBeAlive(String brokerName, long masterId, int epoch) {
        long now = nanoClock.getAsLong();
        long silence = silenceNanos(brokerName, masterId, now);
        if (silence < leaseNanos) {
            return true;
        }
        Lost report = lost.get(brokerName);
        boolean reported = report != null && report.epoch() == epoch && now - report.atNanos() < leaseNanos;
        return !reported && silence < silentNanos;
    }

    /**
     * True while broker {@code brokerId} has heartbeated (or this leader has stood) within the
     * lease: a master that did may still believe it holds the lease, and write.
     */
    boolean withinLease(String brokerName, long brokerId) {
        return silenceNanos(brokerName, brokerId, nanoClock.getAsLong()) < leaseNanos;
    }

    private long silenceNanos(String brokerName, long brokerId, long now) {
        Seen last = seen.get(new Key(brokerName, brokerId));
        long lastSign = last == null ? leaderSinceNanos : Math.max(leaderSinceNanos, last.atNanos());
        return now - lastSign;
    }

    /** Broker id → last reported log end, for every broker of the group heard within the lease. */
    Map<Long, Long> aliveOffsets(String brokerName) {
        return offsetsHeardWithin(brokerName, leaseNanos);
    }

    /**
     * As {@link #aliveOffsets}, for the brokers heard within the silent timeout: those that may
     * still be alive though late, as a master is held alive that long.
     */
    Map<Long, Long> recentOffsets(String brokerName) {
        return offsetsHeardWithin(brokerName, silentNanos);
    }

    private Map<Long, Long> offsetsHeardWithin(String brokerName, long windowNanos) {
        long now = nanoClock.getAsLong();
        Map<Long, Long> heard = new TreeMap<>();
        seen.forEach((key, last) -> {
            if (key.brokerName().equals(brokerName) && now - last.atNanos() < windowNanos) {
                heard.put(key.brokerId(), last.maxOffset());
            }
        });
        return heard;
    }
}
