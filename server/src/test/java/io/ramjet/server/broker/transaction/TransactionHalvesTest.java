package io.ramjet.server.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ramjet.server.broker.record.Half;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a transaction keeps of its halves: one per CommitLog offset, in log order whatever order
 * they came in, and one instance of each destination name however many halves name it.
 */
class TransactionHalvesTest {

    private static Half half(long offset, String destination) {
        return new Half(offset, 100, new String(destination.toCharArray()), 0, 0, 0, offset, 0);
    }

    @Test
    void halvesAreKeptInLogOrderOnePerOffset() {
        Transaction t = new Transaction(1, 0);
        t.addHalf(half(300, "a"));
        t.addHalf(half(100, "a"));
        t.addHalf(half(500, "b"));
        t.addHalf(half(200, "b"));
        Half again = half(300, "b");
        t.addHalf(again);

        List<Half> held = t.halves();
        assertEquals(List.of(100L, 200L, 300L, 500L), held.stream().map(Half::physicalOffset).toList());
        assertEquals("b", held.get(2).destination(), "a half at an offset held replaces it");
        assertEquals(100, t.oldestRecord());
        assertEquals(held, Transaction.restore(t.save()).halves());
    }

    @Test
    void everyHalfOfADestinationSharesOneName() {
        Transaction t = new Transaction(2, 0);
        for (long offset = 0; offset < 1_000; offset += 100) {
            t.addHalf(half(offset, "orders.incoming"));
        }
        List<Half> held = t.halves();
        for (Half h : held) {
            assertSame(held.get(0).destination(), h.destination());
        }
    }
}
