package io.ramjet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every peer first and last equally often in n rounds, and right after every other equally often in a full design. */
class PeerOrderTest {

    @Test
    void inEveryNRoundsEachPeerRunsFirstOnceAndLastOnce() {
        for (int n = 1; n <= 6; n++) {
            PeerOrder order = new PeerOrder(n);
            for (int start = 0; start < order.balancedRounds(); start += n) {
                Map<Integer, Integer> first = new HashMap<>();
                Map<Integer, Integer> last = new HashMap<>();
                for (int r = start; r < start + n; r++) {
                    List<Integer> o = order.of(r);
                    assertEquals(n, o.stream().distinct().count(), "round " + r + " of " + n + ": " + o);
                    first.merge(o.get(0), 1, Integer::sum);
                    last.merge(o.get(n - 1), 1, Integer::sum);
                }
                for (int p = 0; p < n; p++) {
                    assertEquals(1, first.getOrDefault(p, 0), n + " peers, rounds from " + start + ": first " + first);
                    assertEquals(1, last.getOrDefault(p, 0), n + " peers, rounds from " + start + ": last " + last);
                }
            }
        }
    }

    @Test
    void overTheFullDesignEachPeerRunsRightAfterEachOtherEquallyOften() {
        for (int n = 2; n <= 6; n++) {
            PeerOrder order = new PeerOrder(n);
            int[][] after = new int[n][n];
            for (int r = 0; r < order.balancedRounds(); r++) {
                List<Integer> o = order.of(r);
                for (int i = 1; i < n; i++) {
                    after[o.get(i - 1)][o.get(i)]++;
                }
            }
            int expected = order.balancedRounds() * (n - 1) / (n * (n - 1));
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    if (a != b) {
                        assertEquals(expected, after[a][b], n + " peers: " + b + " right after " + a);
                    }
                }
            }
        }
    }

    @Test
    void threePeersNoLongerRunInOneCycle() {
        PeerOrder order = new PeerOrder(3);
        assertEquals(6, order.balancedRounds());
        assertEquals(List.of(0, 1, 2), order.of(0));
        assertEquals(List.of(2, 1, 0), order.of(3));
        assertEquals(order.of(0), order.of(6));
    }
}
