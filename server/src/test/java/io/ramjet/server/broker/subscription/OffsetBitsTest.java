package io.ramjet.server.broker.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OffsetBitsTest {

    private static final int CHUNK = OffsetBits.CHUNK_BITS;

    @Test
    void membersAreAddedAndRemovedAcrossChunks() {
        OffsetBits bits = new OffsetBits();
        assertTrue(bits.add(5));
        assertFalse(bits.add(5), "already a member");
        assertTrue(bits.add(CHUNK + 63));
        assertTrue(bits.add(10L * CHUNK));
        assertEquals(3, bits.size());
        assertTrue(bits.contains(CHUNK + 63));
        assertFalse(bits.contains(CHUNK + 64));
        assertTrue(bits.remove(5));
        assertFalse(bits.remove(5), "no longer a member");
        assertEquals(CHUNK + 63, bits.first());
        assertEquals(10L * CHUNK, bits.nextMember(CHUNK + 64));
        assertEquals(-1, bits.nextMember(10L * CHUNK + 1));
        assertEquals(2, bits.size());
    }

    @Test
    void nextMemberSkipsWhatEitherOtherSetHolds() {
        OffsetBits pending = new OffsetBits();
        pending.addRange(0, 3 * CHUNK);
        OffsetBits inFlight = new OffsetBits();
        OffsetBits excluded = new OffsetBits();
        inFlight.addRange(0, 100);
        excluded.addRange(100, 2 * CHUNK + 7);
        assertEquals(2 * CHUNK + 7, pending.nextMember(0, Long.MAX_VALUE, inFlight, excluded));
        assertEquals(-1, pending.nextMember(0, 2 * CHUNK + 7, inFlight, excluded), "bounded by to");
        assertEquals(100, pending.nextMember(0, Long.MAX_VALUE, inFlight, null));
        assertEquals(50, pending.nextMember(50, Long.MAX_VALUE, null, excluded));
    }

    @Test
    void removingChunksBelowKeepsTheChunkOfTheOffset() {
        OffsetBits bits = new OffsetBits();
        bits.addRange(0, 2 * CHUNK + 10);
        bits.removeChunksBelow(2 * CHUNK + 5);
        assertEquals(10, bits.size());
        assertEquals(2 * CHUNK, bits.first());
        bits.removeChunksBelow(0);
        assertEquals(10, bits.size());
    }

    @Test
    void behavesAsASortedSetOfOffsets() {
        SplittableRandom random = new SplittableRandom(19);
        OffsetBits bits = new OffsetBits();
        OffsetBits mask = new OffsetBits();
        TreeSet<Long> expected = new TreeSet<>();
        TreeSet<Long> masked = new TreeSet<>();
        for (int i = 0; i < 20_000; i++) {
            long offset = random.nextLong(5L * CHUNK);
            switch (random.nextInt(3)) {
                case 0 -> assertEquals(expected.add(offset), bits.add(offset));
                case 1 -> assertEquals(expected.remove(offset), bits.remove(offset));
                default -> {
                    mask.add(offset);
                    masked.add(offset);
                }
            }
            long from = random.nextLong(5L * CHUNK);
            Long next = expected.ceiling(from);
            assertEquals(next == null ? -1 : next, bits.nextMember(from));
            Long unmasked = expected.ceiling(from);
            while (unmasked != null && masked.contains(unmasked)) {
                unmasked = expected.higher(unmasked);
            }
            assertEquals(unmasked == null ? -1 : unmasked, bits.nextMember(from, Long.MAX_VALUE, mask, null));
        }
        assertEquals(expected.size(), bits.size());
    }
}
