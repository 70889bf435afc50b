package io.ramjet.server.broker.log;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DiskGuardTest {

    @Test
    void aSendUnderTheLimitPasses() {
        assertDoesNotThrow(() -> new DiskGuard(() -> 0.5, 0.9, Duration.ZERO).checkSend());
    }

    @Test
    void withoutABlockTimeASendPastTheLimitIsRefusedAtOnce() {
        BrokerException e = assertThrows(BrokerException.class,
                () -> new DiskGuard(() -> 0.99, 0.9, Duration.ZERO).checkSend());
        assertEquals(Refusal.DISK_FULL, e.refusal());
        assertTrue(e.getMessage().contains("99.0%"), e.getMessage());
    }

    @Test
    void aBlockedSendIsRefusedWhenTheDiskStaysFull() {
        long start = System.nanoTime();
        BrokerException e = assertThrows(BrokerException.class,
                () -> new DiskGuard(() -> 0.99, 0.9, Duration.ofMillis(300)).checkSend());
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300));
        assertTrue(e.getMessage().contains("for 300 ms"), e.getMessage());
    }

    @Test
    void aBlockedSendProceedsOnceRoomIsFreed() throws Exception {
        CountDownLatch sampledFull = new CountDownLatch(2);
        double[] usage = {0.99};
        DiskGuard guard = new DiskGuard(() -> {
            sampledFull.countDown();
            synchronized (usage) {
                return usage[0];
            }
        }, 0.9, Duration.ofSeconds(30));
        CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
            try {
                guard.checkSend();
            } catch (BrokerException ex) {
                throw new IllegalStateException(ex);
            }
        });
        assertTrue(sampledFull.await(5, TimeUnit.SECONDS), "the send is waiting on a full disk");
        org.junit.jupiter.api.Assertions.assertFalse(send.isDone());
        synchronized (usage) {
            usage[0] = 0.5;
        }
        send.get(5, TimeUnit.SECONDS);
    }
}
