package io.ramjet.server.broker.subscription;

import java.util.Map;
import java.util.TreeMap;

/**
 * A set of non-negative queue offsets as bits, in chunks of {@value #CHUNK_BITS} offsets that
 * exist only while they hold a member: a run of a million offsets costs 128 KiB and no object
 * per offset, and a few offsets far apart cost a chunk each. {@link #nextMember} tests 64 offsets
 * a step, against other sets at once ({@link #nextMember(long, long, OffsetBits, OffsetBits)}),
 * which is how a cursor finds a consumer's next candidate without looking at each message.
 *
 * <p>Not thread-safe: its owner locks it.
 */
final class OffsetBits {

    private static final int CHUNK_SHIFT = 12;
    static final int CHUNK_BITS = 1 << CHUNK_SHIFT;
    private static final int WORDS = CHUNK_BITS / 64;

    /** One chunk: its words and how many bits are set, so an emptied chunk is dropped. */
    private static final class Chunk {
        final long[] words = new long[WORDS];
        int members;
    }

    private final TreeMap<Long, Chunk> chunks = new TreeMap<>();
    /** The chunk used last and its index, since offsets are mostly touched in order. */
    private long lastIndex = -1;
    private Chunk last;
    private long size;

    /** How many offsets are members. */
    long size() {
        return size;
    }

    boolean contains(long offset) {
        Chunk c = chunk(offset >>> CHUNK_SHIFT, false);
        return c != null && (c.words[word(offset)] & bit(offset)) != 0;
    }

    /** Adds an offset; returns whether it was not a member. */
    boolean add(long offset) {
        Chunk c = chunk(offset >>> CHUNK_SHIFT, true);
        int w = word(offset);
        long b = bit(offset);
        if ((c.words[w] & b) != 0) {
            return false;
        }
        c.words[w] |= b;
        c.members++;
        size++;
        return true;
    }

    /** Adds every offset of {@code [from, to)}. */
    void addRange(long from, long to) {
        for (long o = from; o < to; o++) {
            add(o);
        }
    }

    /** Removes an offset; returns whether it was a member. */
    boolean remove(long offset) {
        long index = offset >>> CHUNK_SHIFT;
        Chunk c = chunk(index, false);
        if (c == null) {
            return false;
        }
        int w = word(offset);
        long b = bit(offset);
        if ((c.words[w] & b) == 0) {
            return false;
        }
        c.words[w] &= ~b;
        size--;
        if (--c.members == 0) {
            chunks.remove(index);
            if (lastIndex == index) {
                lastIndex = -1;
                last = null;
            }
        }
        return true;
    }

    /**
     * Removes the whole chunks below the one holding {@code offset}: what is below an offset that
     * no longer matters, at the cost of a map operation, leaving the few members of its own chunk.
     */
    void removeChunksBelow(long offset) {
        long index = offset >>> CHUNK_SHIFT;
        if (chunks.isEmpty() || chunks.firstKey() >= index) {
            return;
        }
        Map<Long, Chunk> below = chunks.headMap(index, false);
        for (Chunk c : below.values()) {
            size -= c.members;
        }
        below.clear();
        if (lastIndex < index) {
            lastIndex = -1;
            last = null;
        }
    }

    /** The smallest member, or -1 when empty. */
    long first() {
        return nextMember(0, Long.MAX_VALUE, null, null);
    }

    /** The smallest member from {@code from} on, or -1 when there is none. */
    long nextMember(long from) {
        return nextMember(from, Long.MAX_VALUE, null, null);
    }

    /**
     * The smallest member in {@code [from, to)} that is in neither {@code notIn} nor
     * {@code norIn} (either may be null), or -1 when there is none.
     */
    long nextMember(long from, long to, OffsetBits notIn, OffsetBits norIn) {
        long start = Math.max(0, from);
        Map.Entry<Long, Chunk> e = chunks.ceilingEntry(start >>> CHUNK_SHIFT);
        while (e != null) {
            long index = e.getKey();
            long base = index << CHUNK_SHIFT;
            if (base >= to) {
                return -1;
            }
            long[] words = e.getValue().words;
            long[] not = notIn == null ? null : notIn.wordsOf(index);
            long[] nor = norIn == null ? null : norIn.wordsOf(index);
            int w = start > base ? word(start) : 0;
            for (; w < WORDS; w++) {
                long bits = words[w];
                if (not != null) {
                    bits &= ~not[w];
                }
                if (nor != null) {
                    bits &= ~nor[w];
                }
                long wordBase = base + ((long) w << 6);
                if (wordBase + 64 <= start) {
                    continue;
                }
                if (start > wordBase) {
                    bits &= -1L << (start - wordBase);
                }
                if (bits != 0) {
                    long found = wordBase + Long.numberOfTrailingZeros(bits);
                    return found < to ? found : -1;
                }
            }
            e = chunks.higherEntry(index);
        }
        return -1;
    }

    private long[] wordsOf(long index) {
        Chunk c = chunk(index, false);
        return c == null ? null : c.words;
    }

    private Chunk chunk(long index, boolean create) {
        if (index == lastIndex) {
            return last;
        }
        Chunk c = chunks.get(index);
        if (c == null) {
            if (!create) {
                return null;
            }
            c = new Chunk();
            chunks.put(index, c);
        }
        lastIndex = index;
        last = c;
        return c;
    }

    private static int word(long offset) {
        return (int) (offset & (CHUNK_BITS - 1)) >>> 6;
    }

    private static long bit(long offset) {
        return 1L << offset; // Java shifts by the low 6 bits
    }
}
