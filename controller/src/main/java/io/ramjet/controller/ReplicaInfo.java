package io.ramjet.controller;

import java.util.Collections;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the controller group holds for one broker group: its members (broker id → address), the
 * master (or {@link #NO_MASTER}), the epoch history whose last entry is the current epoch, and
 * the in-sync set. Immutable; each committed command yields a new value.
 */
public record ReplicaInfo(String brokerName, SortedMap<Long, String> members, long masterId,
                          EpochHistory history, SortedSet<Long> inSync) {

    public static final long NO_MASTER = -1;

    public ReplicaInfo {
        members = Collections.unmodifiableSortedMap(new TreeMap<>(members));
        inSync = Collections.unmodifiableSortedSet(new TreeSet<>(inSync));
    }

    public static ReplicaInfo empty(String brokerName) {
        return new ReplicaInfo(brokerName, new TreeMap<>(), NO_MASTER, EpochHistory.EMPTY, new TreeSet<>());
    }

    public int epoch() {
        return history.lastEpoch();
    }

    public boolean hasMaster() {
        return masterId != NO_MASTER;
    }

    /** The master's address, or the empty string when the group has no master. */
    public String masterAddress() {
        return members.getOrDefault(masterId, "");
    }

    ReplicaInfo withMember(long brokerId, String address) {
        SortedMap<Long, String> next = new TreeMap<>(members);
        next.put(brokerId, address);
        return new ReplicaInfo(brokerName, next, masterId, history, inSync);
    }

    /** {@code brokerId} becomes master of a new epoch starting at {@code startOffset}, alone in sync. */
    ReplicaInfo withNewMaster(long brokerId, long startOffset) {
        return new ReplicaInfo(brokerName, members, brokerId, history.begin(startOffset), new TreeSet<>(Set.of(brokerId)));
    }

    ReplicaInfo withInSync(Set<Long> next) {
        return new ReplicaInfo(brokerName, members, masterId, history, new TreeSet<>(next));
    }
}
