package io.ramjet.controller;

import io.ramjet.model.EpochEntry;

import java.util.ArrayList;
import java.util.List;

/**
 * The epochs of one broker group in order, each with the offset its master started at: what a
 * returning master reads to cut off what the new master never had.
 */
public record EpochHistory(List<EpochEntry> entries) {

    public static final EpochHistory EMPTY = new EpochHistory(List.of());

    public EpochHistory {
        entries = List.copyOf(entries);
    }

    /** The current epoch, 0 before the group's first master. */
    public int lastEpoch() {
        return entries.isEmpty() ? 0 : entries.get(entries.size() - 1).epoch();
    }

    /** This history with a new epoch starting at {@code startOffset}. */
    public EpochHistory begin(long startOffset) {
        List<EpochEntry> next = new ArrayList<>(entries);
        next.add(new EpochEntry(lastEpoch() + 1, startOffset));
        return new EpochHistory(next);
    }

    /**
     * Where a replica whose log ends at {@code localEndOffset}, last written in
     * {@code localLastEpoch}, must truncate its log before it follows the current master: the
     * start of the first later epoch, since the master of that epoch never had what the replica
     * wrote past that point. A replica already in the current epoch keeps its whole log.
     */
    public long truncationPoint(int localLastEpoch, long localEndOffset) {
        for (EpochEntry entry : entries) {
            if (entry.epoch() > localLastEpoch) {
                return Math.min(localEndOffset, entry.startOffset());
            }
        }
        return localEndOffset;
    }
}
