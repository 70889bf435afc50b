package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ApplicationDemandTest {

    private static final long IDLE_MILLIS = 100;
    /** Long enough for several checks to have run, to show that none found the application idle. */
    private static final long SEVERAL_CHECKS_MILLIS = 5 * IDLE_MILLIS;

    private final ConnectionTimer timer = new ConnectionTimer("demand-test");
    private final CountDownLatch wentIdle = new CountDownLatch(1);
    private final AtomicInteger askedAgain = new AtomicInteger();
    private final ApplicationDemand demand = new ApplicationDemand(IDLE_MILLIS, timer, wentIdle::countDown,
            askedAgain::incrementAndGet);

    @AfterEach
    void stopTimer() {
        timer.close();
    }

    @Test
    void anApplicationThatNeverReceivesIsIdleOnceTheIdleTimeHasPassedSinceTheConsumerOpened() throws Exception {
        long opened = System.nanoTime();
        demand.start();
        assertFalse(demand.idle());
        assertTrue(wentIdle.await(5, TimeUnit.SECONDS));
        assertTrue(demand.idle());
        assertTrue(System.nanoTime() - opened >= TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS));
    }

    @Test
    void aThreadInReceiveKeepsItTakingMessagesAndTheIdleTimeCountsFromWhenItLeaves() throws Exception {
        demand.start();
        demand.enterReceive();
        assertFalse(wentIdle.await(SEVERAL_CHECKS_MILLIS, TimeUnit.MILLISECONDS), "idle while in receive");
        long left = System.nanoTime();
        demand.leaveReceive();
        assertTrue(wentIdle.await(5, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - left >= TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS));
    }

    @Test
    void aListenerKeepsItTakingMessagesUntilItIsRemoved() throws Exception {
        demand.start();
        demand.listening(true);
        assertFalse(wentIdle.await(SEVERAL_CHECKS_MILLIS, TimeUnit.MILLISECONDS), "idle with a listener");
        demand.listening(false);
        assertTrue(wentIdle.await(5, TimeUnit.SECONDS));
    }

    @Test
    void anIdleApplicationThatReceivesAgainIsTakingMessagesAndTheFeedsAreWoken() throws Exception {
        demand.start();
        assertTrue(wentIdle.await(5, TimeUnit.SECONDS));
        assertEquals(0, askedAgain.get());
        demand.enterReceive();
        assertFalse(demand.idle());
        assertEquals(1, askedAgain.get());
        demand.enterReceive();
        assertEquals(1, askedAgain.get(), "woken once, when it stopped being idle");
    }

    @Test
    void aClosedConsumerIsNeverFoundIdle() throws Exception {
        demand.start();
        demand.close();
        assertFalse(wentIdle.await(SEVERAL_CHECKS_MILLIS, TimeUnit.MILLISECONDS));
    }
}
