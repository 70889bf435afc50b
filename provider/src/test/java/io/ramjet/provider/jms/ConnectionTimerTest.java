package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConnectionTimerTest {

    @Test
    void everyTaskRunsOnTheOneTimerThread() throws Exception {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch ran = new CountDownLatch(200);
        try (ConnectionTimer timer = new ConnectionTimer("timer-under-test")) {
            for (int i = 0; i < 200; i++) {
                timer.schedule(() -> {
                    threads.add(Thread.currentThread());
                    ran.countDown();
                }, i % 3);
            }
            assertTrue(ran.await(5, TimeUnit.SECONDS));
        }
        assertEquals(1, threads.size());
        Thread thread = threads.iterator().next();
        assertEquals("timer-under-test", thread.getName());
        assertTrue(thread.isDaemon());
    }

    @Test
    void closingStopsTheThread() throws Exception {
        Thread[] thread = new Thread[1];
        CountDownLatch ran = new CountDownLatch(1);
        ConnectionTimer timer = new ConnectionTimer("timer-closed");
        timer.schedule(() -> {
            thread[0] = Thread.currentThread();
            ran.countDown();
        }, 0);
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        timer.close();
        thread[0].join(5_000);
        assertFalse(thread[0].isAlive());
    }

    @Test
    void aTimerNeverUsedOrClosedFirstStartsNoThread() {
        ConnectionTimer timer = new ConnectionTimer("timer-never-started");
        timer.close();
        timer.schedule(() -> { }, 0);
        assertFalse(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("timer-never-started")));
    }
}
