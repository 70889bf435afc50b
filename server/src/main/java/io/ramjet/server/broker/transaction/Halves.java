package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.record.Half;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The half records of one transaction in CommitLog order, one per offset, kept lean because an
 * open transaction may hold millions: an array of the halves (they arrive in log order, so adding
 * one is an append; one out of order is inserted, one at an offset already held replaces it), and
 * one instance of each destination name, shared by every half of it. Not thread-safe: the
 * transaction locks it.
 */
final class Halves {

    private Half[] halves = new Half[4];
    private int size;
    private final Map<String, String> destinations = new HashMap<>();

    void add(Half half) {
        Half shared = shareDestination(half);
        long offset = shared.physicalOffset();
        if (size == 0 || halves[size - 1].physicalOffset() < offset) {
            grow();
            halves[size++] = shared;
            return;
        }
        int at = indexOf(offset);
        if (at >= 0) {
            halves[at] = shared;
            return;
        }
        int insert = -at - 1;
        grow();
        System.arraycopy(halves, insert, halves, insert + 1, size - insert);
        halves[insert] = shared;
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The lowest offset held; Long.MAX_VALUE when none is. */
    long first() {
        return size == 0 ? Long.MAX_VALUE : halves[0].physicalOffset();
    }

    /** A copy, in CommitLog order. */
    List<Half> list() {
        return List.of(Arrays.copyOf(halves, size));
    }

    private Half shareDestination(Half half) {
        String shared = destinations.computeIfAbsent(half.destination(), name -> name);
        if (shared == half.destination()) {
            return half;
        }
        return new Half(half.physicalOffset(), half.size(), shared, half.queueId(), half.tagSignature(),
                half.deliveryTime(), half.bornTimestamp(), half.expiration());
    }

    private int indexOf(long offset) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long at = halves[mid].physicalOffset();
            if (at < offset) {
                low = mid + 1;
            } else if (at > offset) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }

    private void grow() {
        if (size == halves.length) {
            halves = Arrays.copyOf(halves, halves.length + (halves.length >> 1) + 1);
        }
    }
}
