package io.ramjet.server.broker.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.storage.DispatchListener;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.ReplicationGate;
import io.ramjet.storage.StoreConfig;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeliveryMarksTest {

    @TempDir
    Path dir;

    private final SubscriptionKey key = SubscriptionKey.queue("q");
    private final Subscription subscription = new Subscription(key, null, false, new long[4]);

    private MessageStore open() {
        return MessageStore.open(StoreConfig.defaults(dir).withSegmentSize(1 << 20));
    }

    /** A store whose durable appends ending past {@code durableUpTo} complete only once {@code released} does. */
    private MessageStore openHeld(AtomicLong durableUpTo, CompletableFuture<Void> released) {
        ReplicationGate held = end -> end <= durableUpTo.get() ? CompletableFuture.completedFuture(null) : released;
        return MessageStore.open(StoreConfig.defaults(dir).withSegmentSize(1 << 20), DispatchListener.normalMessages(),
                held);
    }

    @Test
    void aClaimOnAQueueThatNoReplayedMarkCoveredIsMarkedToo() {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(1);
            marks.raise(key, 0, 5);
            marks.start(store);
            marks.claimed(subscription, 3, 7).join();
            assertArrayEquals(new long[] {5, 0, 0, 8}, marks.of(key, 4),
                    "a crash now counts offset 7 of queue 3 as delivered");
        }
    }

    @Test
    void theBoundRunsAheadOfTheClaimAndTheMarkIsDurableWhenTheClaimMayLeave() throws Exception {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(8);
            marks.start(store);
            CompletableFuture<?> first = marks.claimed(subscription, 0, 0);
            first.get(5, TimeUnit.SECONDS);
            assertTrue(store.flushedOffset() >= store.maxPhysicalOffset(), "the MARK is on the disk");
            assertEquals(8, marks.of(key, 4)[0]);
        }
    }

    @Test
    void claimsWellBelowTheBoundWriteNothing() throws Exception {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(8);
            marks.start(store);
            marks.claimed(subscription, 0, 0).get(5, TimeUnit.SECONDS);
            long written = store.maxPhysicalOffset();
            for (long offset = 1; offset < 4; offset++) {
                assertTrue(marks.claimed(subscription, 0, offset).isDone(), "offset " + offset + " leaves at once");
            }
            assertEquals(written, store.maxPhysicalOffset(), "no MARK for claims the logged bound covers");
        }
    }

    @Test
    void aClaimNearTheBoundRaisesItAheadWithoutWaitingForTheNewMark() throws Exception {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(8);
            marks.start(store);
            marks.claimed(subscription, 0, 0).get(5, TimeUnit.SECONDS);
            long written = store.maxPhysicalOffset();
            assertTrue(marks.claimed(subscription, 0, 5).isDone(), "covered by the durable bound 8");
            assertNotEquals(written, store.maxPhysicalOffset(), "a new MARK was written before it was needed");
            assertEquals(13, marks.of(key, 4)[0]);
        }
    }

    @Test
    void claimsUnderTheDurableBoundLeaveAtOnceWhileTheRaisedMarkIsOnItsWay() throws Exception {
        AtomicLong durableUpTo = new AtomicLong(Long.MAX_VALUE);
        CompletableFuture<Void> released = new CompletableFuture<>();
        try (MessageStore store = openHeld(durableUpTo, released)) {
            DeliveryMarks marks = new DeliveryMarks(8);
            marks.start(store);
            marks.claimed(subscription, 0, 0).get(5, TimeUnit.SECONDS);
            durableUpTo.set(store.maxPhysicalOffset());

            assertTrue(marks.claimed(subscription, 0, 5).isDone(), "raises the bound to 13, covered by 8");
            assertTrue(marks.claimed(subscription, 0, 6).isDone(),
                    "covered by the durable bound 8: no wait for the MARK of 13 still on its way");
            CompletableFuture<?> above = marks.claimed(subscription, 0, 9);
            assertFalse(above.isDone(), "offset 9 is covered only by the MARK of 13");

            released.complete(null);
            above.get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClaimThatWaitsForAMarkOnItsWayDoublesTheLead() throws Exception {
        AtomicLong durableUpTo = new AtomicLong(Long.MAX_VALUE);
        CompletableFuture<Void> released = new CompletableFuture<>();
        try (MessageStore store = openHeld(durableUpTo, released)) {
            DeliveryMarks marks = new DeliveryMarks(8, 64);
            marks.start(store);
            marks.claimed(subscription, 0, 0).get(5, TimeUnit.SECONDS);
            durableUpTo.set(store.maxPhysicalOffset());
            for (long offset = 1; offset < 8; offset++) {
                assertTrue(marks.claimed(subscription, 0, offset).isDone(), "offset " + offset + " covered by 8");
            }
            assertEquals(12, marks.of(key, 4)[0], "raised by one lead of 8 at offset 4, on its way");

            CompletableFuture<?> waiting = marks.claimed(subscription, 0, 8);
            assertFalse(waiting.isDone(), "offset 8 is covered only by the MARK of 12");
            assertEquals(8 + 16, marks.of(key, 4)[0], "the claims outran the disk: the next MARK goes twice as far");

            released.complete(null);
            waiting.get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClaimPastTheBoundWaitsForItsOwnMark() throws Exception {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(8);
            marks.start(store);
            marks.claimed(subscription, 0, 0).get(5, TimeUnit.SECONDS);
            marks.claimed(subscription, 0, 20).get(5, TimeUnit.SECONDS);
            assertEquals(28, marks.of(key, 4)[0]);
            assertTrue(store.flushedOffset() >= store.maxPhysicalOffset(), "the MARK for 28 is on the disk");
        }
    }

    @Test
    void largeStepsOfClaimsGrowTheLeadSoThatTheNextStepLeavesAtOnce() throws Exception {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(8, 64);
            marks.start(store);
            marks.claimed(subscription, 0, 19).get(5, TimeUnit.SECONDS);
            assertEquals(19 + 38, marks.of(key, 4)[0], "a lead of twice the step of 19");
            assertTrue(marks.claimed(subscription, 0, 39).isDone(), "covered by the durable bound 57");
            assertEquals(39 + 40, marks.of(key, 4)[0], "raised a lead ahead again");
        }
    }

    @Test
    void theLeadGrowsNoFurtherThanItsMaximum() throws Exception {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(8, 16);
            marks.start(store);
            marks.claimed(subscription, 1, 100).get(5, TimeUnit.SECONDS);
            assertEquals(116, marks.of(key, 4)[1], "what a crash may over-count stays bounded");
        }
    }

    @Test
    void nonDurableSubscriptionsAreNeverMarked() {
        try (MessageStore store = open()) {
            DeliveryMarks marks = new DeliveryMarks(8);
            marks.start(store);
            SubscriptionKey topic = new SubscriptionKey("t", SubscriptionKind.TOPIC, null, "1");
            long before = store.maxPhysicalOffset();
            assertTrue(marks.claimed(new Subscription(topic, null, false, new long[1]), 0, 3).isDone());
            assertEquals(before, store.maxPhysicalOffset());
        }
    }

    @Test
    void aMarkTheStoreRefusesFailsItsClaimAndTheNextClaimTriesAgain() {
        MessageStore store = open();
        DeliveryMarks marks = new DeliveryMarks(8);
        marks.start(store);
        marks.claimed(subscription, 0, 0).join();
        store.close();
        CompletableFuture<?> refused = marks.claimed(subscription, 0, 10);
        assertTrue(refused.isCompletedExceptionally(), "the claim may not leave");
        assertEquals(8, marks.of(key, 4)[0], "back to the durable bound");
        assertTrue(marks.claimed(subscription, 0, 11).isCompletedExceptionally(),
                "a later claim above it writes (and here fails) a MARK of its own");
    }
}
