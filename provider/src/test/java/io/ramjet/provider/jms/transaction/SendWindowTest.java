package io.ramjet.provider.jms.transaction;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SendWindowTest {

    @Test
    void theSendPastTheLimitWaitsForTheOldest() throws Exception {
        SendWindow window = new SendWindow(2);
        CompletableFuture<Void> first = new CompletableFuture<>();
        window.add(first);
        window.add(new CompletableFuture<>());
        AtomicBoolean added = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread third = new Thread(() -> {
            started.countDown();
            window.add(CompletableFuture.completedFuture(null));
            added.set(true);
        });
        third.start();
        assertTrue(started.await(5, TimeUnit.SECONDS));
        third.join(100);
        assertFalse(added.get(), "a third send while two are unanswered waits");
        first.complete(null);
        third.join(5_000);
        assertTrue(added.get());
    }

    @Test
    void awaitAllGivesTheFirstFailureAndClearingForgetsIt() {
        SendWindow window = new SendWindow(8);
        window.add(CompletableFuture.completedFuture(null));
        assertNull(window.awaitAll());
        IllegalStateException refused = new IllegalStateException("refused");
        CompletableFuture<Void> failing = new CompletableFuture<>();
        window.add(failing);
        window.add(CompletableFuture.completedFuture(null));
        failing.completeExceptionally(refused);
        assertSame(refused, window.awaitAll());
        assertSame(refused, window.clearFailure());
        assertNull(window.failure());
        assertNull(window.awaitAll());
    }
}
