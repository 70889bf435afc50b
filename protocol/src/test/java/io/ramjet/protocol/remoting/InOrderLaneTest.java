package io.ramjet.protocol.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InOrderLaneTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void tasksRunOneAtATimeInTheOrderGivenOnASharedPool() throws Exception {
        InOrderLane lane = new InOrderLane(pool);
        List<Integer> ran = new ArrayList<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(2_000);
        for (int i = 0; i < 2_000; i++) {
            int n = i;
            lane.execute(() -> {
                if (running.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                synchronized (ran) {
                    ran.add(n);
                }
                running.decrementAndGet();
                done.countDown();
            });
        }
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(0, overlaps.get(), "never two tasks at once");
        assertEquals(IntStream.range(0, 2_000).boxed().toList(), ran);
    }

    @Test
    void aFailingTaskDoesNotStopTheLane() throws Exception {
        InOrderLane lane = new InOrderLane(pool);
        CountDownLatch after = new CountDownLatch(1);
        lane.execute(() -> {
            throw new IllegalStateException("expected by the test");
        });
        lane.execute(after::countDown);
        assertTrue(after.await(5, TimeUnit.SECONDS));
    }
}
