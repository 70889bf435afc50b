package io.ramjet.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The order the peers run in, round by round: a Williams design, so that over {@code n} rounds
 * (n peers) every peer runs first once and last once, and, over 2n rounds where n is odd (n
 * rounds where it is even), every peer runs right after every other peer equally often. A peer
 * that leaves work behind after its round (a checkpoint, a preallocated segment, dirty pages) so
 * does not always land it in the same other peer's round.
 */
final class PeerOrder {

    private final List<List<Integer>> orders;

    PeerOrder(int peers) {
        this.orders = orders(peers);
    }

    /** The rounds after which every peer has been first, last and after every other equally often. */
    int balancedRounds() {
        return orders.size();
    }

    /** The indexes of the peers in the order round {@code round} (from 0) runs them. */
    List<Integer> of(int round) {
        return orders.get(round % orders.size());
    }

    /**
     * The Williams design for {@code n}: the first order 0, 1, n-1, 2, n-2, ..., each next order
     * the one before with every index plus 1 (mod n); for odd n those n orders again reversed.
     */
    private static List<List<Integer>> orders(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("at least one peer");
        }
        List<Integer> first = new ArrayList<>();
        for (int i = 0, low = 1, high = n - 1; i < n; i++) {
            first.add(i == 0 ? 0 : i % 2 == 1 ? low++ : high--);
        }
        List<List<Integer>> orders = new ArrayList<>();
        for (int shift = 0; shift < n; shift++) {
            List<Integer> order = new ArrayList<>();
            for (int p : first) {
                order.add((p + shift) % n);
            }
            orders.add(List.copyOf(order));
        }
        if (n % 2 == 1 && n > 1) {
            for (int shift = 0; shift < n; shift++) {
                List<Integer> reversed = new ArrayList<>(orders.get(shift));
                java.util.Collections.reverse(reversed);
                orders.add(List.copyOf(reversed));
            }
        }
        return List.copyOf(orders);
    }
}
