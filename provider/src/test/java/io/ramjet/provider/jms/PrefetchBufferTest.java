package io.ramjet.provider.jms;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrefetchBufferTest {

    /** A message stand-in: priority and arrival number; its size is 10 + seq bytes. */
    private record Item(int priority, int seq) {
        int bytes() {
            return 10 + seq;
        }
    }

    private final PrefetchBuffer<Item> buffer = new PrefetchBuffer<>(Item::priority, Item::bytes);

    @Test
    void bytesFollowEveryWayInAndOut() throws Exception {
        buffer.addAll(List.of(new Item(4, 0), new Item(4, 1), new Item(9, 2), new Item(0, 3)));
        assertEquals(10 + 11 + 12 + 13, buffer.bytes());
        Item first = buffer.poll(0, TimeUnit.MILLISECONDS);
        assertEquals(10 + 11 + 13, buffer.bytes());
        buffer.addFirst(first);
        assertEquals(10 + 11 + 12 + 13, buffer.bytes());
        assertEquals(List.of(new Item(0, 3)), buffer.trimTo(3));
        assertEquals(10 + 11 + 12, buffer.bytes());
        assertEquals(1, buffer.removeIf(item -> item.seq() == 1));
        assertEquals(10 + 12, buffer.bytes());
        buffer.drainTo(new ArrayList<>());
        assertEquals(0, buffer.bytes());
    }

    @Test
    void takesHigherPriorityFirstAndArrivalOrderWithinOne() throws Exception {
        int[] priorities = {4, 9, 0, 4, 9, 7, 4};
        for (int i = 0; i < priorities.length; i++) {
            buffer.add(new Item(priorities[i], i));
        }
        List<Integer> order = new ArrayList<>();
        for (Item item; (item = buffer.poll(0, TimeUnit.MILLISECONDS)) != null; ) {
            order.add(item.seq());
        }
        assertEquals(List.of(1, 4, 5, 0, 3, 6, 2), order);
        assertEquals(0, buffer.size());
    }

    @Test
    void anItemPutBackIsTakenNext() throws Exception {
        buffer.add(new Item(4, 0));
        buffer.add(new Item(4, 1));
        Item first = buffer.poll(0, TimeUnit.MILLISECONDS);
        buffer.addFirst(first);
        assertEquals(0, buffer.poll(0, TimeUnit.MILLISECONDS).seq());
        assertEquals(1, buffer.poll(0, TimeUnit.MILLISECONDS).seq());
    }

    @Test
    void drainKeepsTakingOrderAndOutOfRangePrioritiesAreClamped() {
        buffer.add(new Item(-3, 0));
        buffer.add(new Item(42, 1));
        buffer.add(new Item(5, 2));
        List<Item> drained = new ArrayList<>();
        buffer.drainTo(drained);
        assertEquals(List.of(1, 2, 0), drained.stream().map(Item::seq).toList());
        assertEquals(0, buffer.size());
    }

    @Test
    void pollWaitsForAnAddAndTimesOutEmpty() throws Exception {
        assertNull(buffer.poll(20, TimeUnit.MILLISECONDS));
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Item> got = new AtomicReference<>();
        Thread taker = new Thread(() -> {
            waiting.countDown();
            try {
                got.set(buffer.poll(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        taker.start();
        assertTrue(waiting.await(5, TimeUnit.SECONDS));
        buffer.add(new Item(1, 7));
        taker.join(10_000);
        assertEquals(7, got.get().seq());
    }
}
