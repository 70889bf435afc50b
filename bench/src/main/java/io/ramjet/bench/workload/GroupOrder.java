package io.ramjet.bench.workload;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the ordered-groups workload checks while it counts: every group's messages must arrive
 * with sequence numbers 1, 2, 3 ... in that order, whichever consumer receives them. A number at
 * or below the last one seen is a repeat (a redelivery: RocketMQ's orderly consumer may repeat
 * messages when its queues move at a rebalance), counted apart and not as progress; one past the
 * next is out of order. Thread-safe.
 */
public final class GroupOrder {

    private final Map<String, Integer> lastSeq = new ConcurrentHashMap<>();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong outOfOrder = new AtomicLong();
    private final AtomicLong repeats = new AtomicLong();

    /** One delivery of message {@code seq} (from 1) of {@code group}. */
    public void seen(String group, int seq) {
        boolean[] repeat = {false};
        lastSeq.compute(group, (g, last) -> {
            int next = last == null ? 1 : last + 1;
            if (seq < next) {
                repeat[0] = true;
                return last;
            }
            if (seq > next) {
                outOfOrder.incrementAndGet();
            }
            return seq;
        });
        (repeat[0] ? repeats : delivered).incrementAndGet();
    }

    public long repeats() {
        return repeats.get();
    }

    public AtomicLong delivered() {
        return delivered;
    }

    /** @throws IllegalStateException when any message arrived out of its group's order */
    public void check(String what) {
        if (outOfOrder.get() > 0) {
            throw new IllegalStateException(what + ": " + outOfOrder.get() + " of " + delivered.get()
                    + " messages arrived out of their group's order");
        }
    }
}
