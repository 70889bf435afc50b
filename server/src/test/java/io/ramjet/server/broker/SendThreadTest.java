package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SendThreadTest {

    private final List<String> ran = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch idle = new CountDownLatch(1);
    private final SendThread thread = new SendThread(Thread::new, () -> {
        ran.add("idle");
        idle.countDown();
    });

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    @Test
    void runsTheIdleWorkOnceAfterABurstOfRequests() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        thread.execute(() -> {
            await(release);
            ran.add("first");
        });
        for (int i = 0; i < 3; i++) {
            String name = "queued " + i;
            thread.execute(() -> ran.add(name));
        }
        release.countDown();
        assertTrue(idle.await(10, TimeUnit.SECONDS));
        assertEquals(List.of("first", "queued 0", "queued 1", "queued 2", "idle"), ran);
    }

    @Test
    void keepsItsThreadWhenTheIdleWorkFails() throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        SendThread failing = new SendThread(Thread::new, () -> {
            failed.countDown();
            throw new IllegalStateException("force failed");
        });
        try {
            List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
            failing.execute(() -> threads.add(Thread.currentThread()));
            assertTrue(failed.await(10, TimeUnit.SECONDS));
            CountDownLatch second = new CountDownLatch(1);
            failing.execute(() -> {
                threads.add(Thread.currentThread());
                second.countDown();
            });
            assertTrue(second.await(10, TimeUnit.SECONDS));
            assertEquals(threads.get(0), threads.get(1));
        } finally {
            failing.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
