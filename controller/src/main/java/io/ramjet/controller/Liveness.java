package io.ramjet.controller;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which brokers heartbeat, as seen by this controller while it is the Ratis leader. Deliberately
 * not replicated: heartbeats arrive every few seconds from every broker and would flood the Raft
 * log, while only the leader decides elections and writes its judgement into the {@code Election}
 * log entry it commits. A new leader starts with an empty table ({@link #restart}) and gives
 * every master one full timeout to reach it before calling it dead, but counts as a candidate only
 * a broker it has heard itself. Thread-safe.
 */
final class Liveness {

    private record Key(String brokerName, long brokerId) {
    }

    private record Seen(long atNanos, long maxOffset) {
    }

    private final Map<Key, Seen> seen = new ConcurrentHashMap<>();
    private final long timeoutNanos;
    private final LongSupplier nanoClock;
    private volatile long leaderSinceNanos;

    Liveness(Duration timeout, LongSupplier nanoClock) {
        this.timeoutNanos = timeout.toNanos();
        this.nanoClock = nanoClock;
        this.leaderSinceNanos = nanoClock.getAsLong();
    }

    /** This controller has just become leader: forget what an earlier term heard. */
    void restart() {
        seen.clear();
        leaderSinceNanos = nanoClock.getAsLong();
    }

    void heard(String brokerName, long brokerId, long maxOffset) {
        seen.put(new Key(brokerName, brokerId), new Seen(nanoClock.getAsLong(), maxOffset));
    }

    /** True while the master has heartbeated within the timeout, or this leader is too new to know. */
    boolean masterMayBeAlive(String brokerName, long masterId) {
        long now = nanoClock.getAsLong();
        return now - leaderSinceNanos < timeoutNanos || isAlive(seen.get(new Key(brokerName, masterId)), now);
    }

    /** Broker id → last reported log end, for every broker of the group heard within the timeout. */
    Map<Long, Long> aliveOffsets(String brokerName) {
        long now = nanoClock.getAsLong();
        Map<Long, Long> alive = new TreeMap<>();
        seen.forEach((key, last) -> {
            if (key.brokerName().equals(brokerName) && isAlive(last, now)) {
                alive.put(key.brokerId(), last.maxOffset());
            }
        });
        return alive;
    }

    private boolean isAlive(Seen last, long now) {
        return last != null && now - last.atNanos() < timeoutNanos;
    }
}
