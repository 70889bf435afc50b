package io.ramjet.protocol.frame;

import java.util.HashMap;
import java.util.Map;

/**
 * The direct memory all partially received large frames of a server may hold together, and the
 * share of it one owner may hold (a user once its connection authenticated, else a remote
 * address): a decoder reserves a large frame's whole length when its length field arrives, before
 * buffering it, and gives it back when the frame is decoded or its connection closes. A frame that
 * does not fit is refused and its connection closed, so many connections each sending most of a
 * maximum-sized frame cannot exhaust the memory, and one owner cannot take what the others need.
 * Frames up to {@link #SMALL_FRAME} bytes are not counted (connection limits bound them).
 * Thread-safe.
 */
public final class FrameMemory {

    /** Frames up to this length are not reserved. */
    public static final int SMALL_FRAME = 64 * 1024;

    private final long limit;
    private final long ownerLimit;
    private final Map<String, Long> byOwner = new HashMap<>();
    private long reserved;

    /**
     * @param limit      bytes all reserved frames may hold together
     * @param ownerLimit bytes the frames of one owner may hold together
     */
    public FrameMemory(long limit, long ownerLimit) {
        if (limit < 1 || ownerLimit < 1) {
            throw new IllegalArgumentException("frame memory limits must be positive: " + limit + ", " + ownerLimit);
        }
        this.limit = limit;
        this.ownerLimit = Math.min(limit, ownerLimit);
    }

    /** Reserves {@code bytes} for {@code owner}; false, reserving nothing, when they do not fit. */
    public synchronized boolean reserve(String owner, long bytes) {
        long mine = byOwner.getOrDefault(owner, 0L);
        if (reserved + bytes > limit || mine + bytes > ownerLimit) {
            return false;
        }
        reserved += bytes;
        byOwner.put(owner, mine + bytes);
        return true;
    }

    /** Gives back what {@link #reserve} took for {@code owner}. */
    public synchronized void release(String owner, long bytes) {
        reserved -= bytes;
        long left = byOwner.getOrDefault(owner, 0L) - bytes;
        if (left <= 0) {
            byOwner.remove(owner);
        } else {
            byOwner.put(owner, left);
        }
    }

    /** Bytes reserved now. */
    public synchronized long reserved() {
        return reserved;
    }

    public long limit() {
        return limit;
    }

    public long ownerLimit() {
        return ownerLimit;
    }
}
