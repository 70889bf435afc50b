package io.ramjet.server.broker.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HeldPullsTest {

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HeldPulls held = new HeldPulls(executor, timer);

    @AfterEach
    void stop() {
        executor.shutdownNow();
        timer.shutdownNow();
    }

    @Test
    void destinationsThatComeAndGoLeaveNothingBehind() throws Exception {
        for (int i = 0; i < 100; i++) {
            String destination = "TMP." + i;
            var answered = held.pull(destination, "subscription", 1, 10, 20, (max, bytes) -> Fetched.nothing());
            held.wake(destination);
            answered.get(5, TimeUnit.SECONDS);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (held.destinations() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(0, held.destinations(), "no entry left for the 100 destinations");
        assertEquals(0, held.heldCount());
    }
}
