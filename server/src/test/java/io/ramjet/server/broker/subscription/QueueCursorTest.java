package io.ramjet.server.broker.subscription;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueueCursorTest {

    private static final long A = 1, B = 2;

    @Test
    void firstDeliveryHasCountOneAndIsNotRedelivered() {
        QueueCursor c = new QueueCursor(0, 0);
        Delivery d = c.claim(c.nextCandidate(A, 10), A);
        assertEquals(0, d.offset());
        assertEquals(1, d.deliveryCount());
        assertFalse(d.redelivered());
    }

    @Test
    void nothingIsOfferedPastTheQueueEnd() {
        QueueCursor c = new QueueCursor(0, 5);
        assertEquals(-1, c.nextCandidate(A, 5));
        assertEquals(5, c.nextCandidate(A, 6));
    }

    @Test
    void inFlightMessagesAreNotOfferedToAnyone() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        assertEquals(1, c.nextCandidate(B, 10));
        assertEquals(1, c.nextCandidate(A, 10));
    }

    @Test
    void competingConsumersGetDisjointOffsets() {
        QueueCursor c = new QueueCursor(0, 0);
        long[] got = new long[6];
        for (int i = 0; i < 6; i++) {
            long consumer = i % 2 == 0 ? A : B;
            got[i] = c.claim(c.nextCandidate(consumer, 6), consumer).offset();
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), java.util.Arrays.stream(got).boxed().toList());
        assertEquals(-1, c.nextCandidate(A, 6));
    }

    @Test
    void ackAdvancesLowWaterOnlyOverAContiguousPrefix() {
        QueueCursor c = new QueueCursor(0, 0);
        for (int i = 0; i < 3; i++) {
            c.claim(i, A);
        }
        c.ack(1);
        assertEquals(0, c.lowWater());
        c.ack(0);
        assertEquals(2, c.lowWater());
        c.ack(2);
        assertEquals(3, c.lowWater());
        assertEquals(0, c.pendingCount());
    }

    @Test
    void ackedMessageIsNeverOfferedAgain() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        c.ack(0);
        assertFalse(c.ack(0));
        assertEquals(-1, c.nextCandidate(A, 1));
        assertThrows(IllegalArgumentException.class, () -> c.claim(0, A));
    }

    @Test
    void countedReleaseRedeliversWithIncreasedCount() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        assertEquals(1, c.release(0, A, true));
        Delivery again = c.claim(c.nextCandidate(B, 1), B);
        assertEquals(2, again.deliveryCount());
        assertTrue(again.redelivered());
    }

    @Test
    void uncountedReleaseOfUnseenPrefetchKeepsTheCount() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        assertEquals(0, c.release(0, A, false));
        assertFalse(c.claim(0, B).redelivered());
    }

    @Test
    void aDeliveryStaysWithItsConsumerHoweverLongItTakes() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        assertEquals(-1, c.nextCandidate(B, 1));
        assertEquals(1, c.inFlightCount());
    }

    @Test
    void onlyTheConsumerAMessageIsDeliveredToAcknowledgesIt() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        assertFalse(c.ackDelivery(0, B), "delivered to A, not B");
        assertFalse(c.ackDelivery(1, A), "never delivered");
        assertFalse(c.ackDelivery(100_000_000, A), "far past the queue: refused without touching anything");
        assertEquals(1, c.readOffset());
        assertTrue(c.ackDelivery(0, A));
        assertFalse(c.ackDelivery(0, A), "acknowledged already");
        assertEquals(1, c.lowWater());
    }

    @Test
    void aStaleAcknowledgementOfAnEarlierDeliveryTakesNothing() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        c.releaseAll(A);
        c.claim(c.nextCandidate(B, 1), B);
        assertFalse(c.ackDelivery(0, A), "A lost it; B holds it now");
        assertEquals(1, c.inFlightCount());
    }

    @Test
    void releaseAndTransferTouchOnlyWhatTheNamedConsumerHolds() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        assertEquals(-1, c.release(0, B, true));
        assertFalse(c.transfer(0, B, 99));
        assertTrue(c.transfer(0, A, 99));
        assertFalse(c.ackDelivery(0, A), "the transaction holds it now");
        assertEquals(1, c.release(0, 99, true));
    }

    @Test
    void aClosingConsumerGivesBackUnseenMessagesUncountedAndKeepsWhatItsSessionHolds() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        c.claim(1, A);
        c.claim(2, A);
        List<Delivery> released = c.releaseUnseen(A, java.util.Set.of(1L));
        assertEquals(List.of(0L, 2L), released.stream().map(Delivery::offset).toList());
        assertEquals(0, c.deliveries(0), "never seen: not counted");
        assertTrue(c.ackDelivery(1, A), "the session still acknowledges what it consumed");
    }

    @Test
    void aMessageATransactionNamedCountsItsDeliveryWhenItsClosingConsumerGivesItBack() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        c.claim(1, A);
        assertFalse(c.seen(0, B), "not in flight to B: left alone");
        assertTrue(c.seen(0, A));
        List<Delivery> released = c.releaseUnseen(A, java.util.Set.of());
        assertEquals(List.of(1, 0), released.stream().map(Delivery::deliveryCount).toList(),
                "offset 0 was seen: counted; offset 1 never was");
        c.claim(0, B);
        c.releaseUnseen(B, java.util.Set.of());
        assertEquals(1, c.deliveries(0), "a new delivery starts unseen");
        c.claim(0, A);
        c.seen(0, A);
        assertTrue(c.transfer(0, A, B));
        c.releaseUnseen(B, java.util.Set.of());
        assertEquals(1, c.deliveries(0), "its new holder had not seen it");
    }

    @Test
    void afterACrashEveryPendingMessageBelowTheBoundIsFlaggedPossiblyDelivered() {
        QueueCursor c = QueueCursor.restore(0, 0, 2, List.of(new long[] {0, 1, 0}, new long[] {1, 1, 1}));
        assertEquals(2, c.possiblyDeliveredBelow(3), "offsets 0 and 2; offset 1 counts a delivery already");
        assertEquals(1, c.deliveries(0), "re-claimed after the snapshot, perhaps seen");
        assertEquals(1, c.deliveries(1));
        assertEquals(1, c.deliveries(2), "claimed after the snapshot");
    }

    @Test
    void aPossibleDeliveryIsFlaggedButNotCountedTowardsTheDeadLetterLimit() {
        QueueCursor c = QueueCursor.restore(0, 0, 1, List.of(new long[] {0, 1, 1}));
        c.possiblyDeliveredBelow(2);
        Delivery seenBefore = c.claim(0, A);
        Delivery neverSeen = c.claim(1, A);
        assertEquals(new Delivery(0, 0, 2, 1), seenBefore, "a counted delivery counts");
        assertEquals(new Delivery(0, 1, 2, 0), neverSeen, "JMSRedelivered needs a count of 2, none of it proven");
    }

    @Test
    void crashesInARowFlagOnceAndCountNothing() {
        QueueCursor c = new QueueCursor(0, 0);
        for (int crash = 0; crash < 3; crash++) {
            c = QueueCursor.restore(0, c.lowWater(), c.readOffset(), c.pendingRuns());
            c.possiblyDeliveredBelow(4);
        }
        assertEquals(1, c.pendingRuns().size());
        assertArrayEquals(new long[] {0, 4, QueueCursor.POSSIBLY_DELIVERED},
                c.pendingRuns().get(0), "the flag is kept by a snapshot");
        assertEquals(new Delivery(0, 3, 2, 0), c.claim(3, A));
    }

    @Test
    void releaseAllReturnsEverythingAConsumerHeld() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        c.claim(1, B);
        c.claim(2, A);
        List<Delivery> released = c.releaseAll(A);
        assertEquals(List.of(0L, 2L), released.stream().map(Delivery::offset).toList());
        assertEquals(1, c.inFlightCount());
    }

    @Test
    void excludedMessageGoesToAnotherConsumerOnly() {
        QueueCursor c = new QueueCursor(0, 0);
        c.exclude(c.nextCandidate(A, 1), A);
        assertEquals(-1, c.nextCandidate(A, 1));
        assertEquals(0, c.nextCandidate(B, 1));
        assertFalse(c.claim(0, B).redelivered());
    }

    @Test
    void aCountedRedeliveryOffersTheMessageAgainToAConsumerThatRefusedIt() {
        QueueCursor c = new QueueCursor(0, 0);
        c.exclude(c.nextCandidate(A, 1), A);
        c.claim(c.nextCandidate(B, 1), B);
        c.release(0, B, false);
        assertEquals(-1, c.nextCandidate(A, 1), "an uncounted release changes nothing a selector sees");
        c.claim(c.nextCandidate(B, 1), B);
        c.release(0, B, true);
        assertEquals(0, c.nextCandidate(A, 1), "JMSXDeliveryCount changed: A's selector may take it now");
    }

    @Test
    void releasingAMessageNotInFlightIsRefused() {
        QueueCursor c = new QueueCursor(0, 0);
        assertEquals(-1, c.release(0, A, true));
        c.claim(0, A);
        c.release(0, A, true);
        assertEquals(-1, c.release(0, A, true));
    }

    @Test
    void claimingAnInFlightMessageIsRefused() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        assertThrows(IllegalStateException.class, () -> c.claim(0, B));
    }

    @Test
    void ackBeyondReadOffsetLeavesTheSkippedOffsetsPending() {
        QueueCursor c = new QueueCursor(0, 0);
        c.ack(2);
        assertEquals(0, c.lowWater());
        assertEquals(3, c.readOffset());
        assertEquals(2, c.pendingCount());
        assertEquals(0, c.nextCandidate(A, 3));
    }

    @Test
    void snapshotRestoresPendingMessagesVisibleWithTheirCounts() {
        QueueCursor c = new QueueCursor(0, 0);
        for (int i = 0; i < 4; i++) {
            c.claim(i, A);
        }
        c.ack(0);
        c.ack(2);
        c.release(1, A, true);
        QueueCursor r = QueueCursor.restore(0, c.lowWater(), c.readOffset(), c.pendingRuns());
        assertEquals(1, r.lowWater());
        assertEquals(4, r.readOffset());
        assertEquals(1, r.deliveries(1));
        assertEquals(1, r.nextCandidate(A, 4));
        assertEquals(2, r.claim(1, A).deliveryCount());
        assertEquals(3, r.nextCandidate(A, 4));
    }

    @Test
    void aMessageReleasedBelowAConsumersScanFloorIsOfferedToItAgain() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(c.nextCandidate(B, 10), B);
        for (int i = 1; i < 5; i++) {
            c.exclude(c.nextCandidate(A, 10), A);
        }
        assertEquals(5, c.nextCandidate(A, 10));
        c.release(0, B, true);
        assertEquals(0, c.nextCandidate(A, 10));
    }

    @Test
    void aMessageOfALostConsumerBelowAnotherConsumersScanFloorIsOfferedToItAgain() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, B);
        c.exclude(c.nextCandidate(A, 3), A);
        c.exclude(c.nextCandidate(A, 3), A);
        assertEquals(-1, c.nextCandidate(A, 3));
        c.releaseAll(B);
        assertEquals(0, c.nextCandidate(A, 3));
    }

    @Test
    void whatOneConsumerIsExcludedFromStaysOfferableToAnother() {
        QueueCursor c = new QueueCursor(0, 0);
        for (int i = 0; i < 100; i++) {
            c.exclude(c.nextCandidate(A, 100), A);
        }
        assertEquals(-1, c.nextCandidate(A, 100));
        for (int i = 0; i < 100; i++) {
            assertEquals(i, c.claim(c.nextCandidate(B, 100), B).offset());
        }
    }

    @Test
    void exclusionsOutliveALoweredScanFloorAndACountedRedeliveryAsksTheRefusersAgain() {
        QueueCursor c = new QueueCursor(0, 0);
        long end = 2L * OffsetBits.CHUNK_BITS + 10;
        c.claim(c.nextCandidate(B, end + 1), B);
        for (long o = 1; o < end; o++) {
            c.exclude(c.nextCandidate(A, end + 1), A);
        }
        assertEquals(end, c.nextCandidate(A, end + 1));
        assertEquals(end, c.pendingCount());
        c.release(0, B, false);
        assertEquals(0, c.nextCandidate(A, end + 1), "the floor went down to the released message");
        c.claim(0, A);
        assertEquals(end, c.nextCandidate(A, end + 1), "what it refused stays refused");
        long refused = OffsetBits.CHUNK_BITS + 3;
        c.claim(refused, B);
        c.release(refused, B, true);
        assertEquals(refused, c.nextCandidate(A, end + 1), "its delivery count changed");
        assertEquals(2, c.claim(refused, A).deliveryCount());
        assertEquals(end, c.nextCandidate(A, end + 1));
    }

    @Test
    void pendingOffsetsAreStoredInRunsOfTheSameCountAndRestoredFromThem() {
        QueueCursor c = new QueueCursor(0, 10);
        for (int i = 0; i < 1_000; i++) {
            long candidate = c.nextCandidate(A, 1_010);
            if (i % 100 == 50) {
                c.claim(candidate, A);
                c.ack(candidate);
            } else {
                c.exclude(candidate, A);
            }
        }
        c.claim(c.nextCandidate(B, 1_010), B);
        c.release(10, B, true);
        List<long[]> runs = c.pendingRuns();
        assertEquals(12, runs.size());
        assertArrayEquals(new long[] {10, 1, 1}, runs.get(0));
        assertArrayEquals(new long[] {11, 49, 0}, runs.get(1));
        assertArrayEquals(new long[] {61, 99, 0}, runs.get(2));
        assertArrayEquals(new long[] {861, 99, 0}, runs.get(10));
        assertArrayEquals(new long[] {961, 49, 0}, runs.get(11));
        QueueCursor r = QueueCursor.restore(0, c.lowWater(), c.readOffset(), runs);
        assertEquals(990, r.pendingCount());
        assertEquals(10, r.lowWater());
        assertEquals(1_010, r.readOffset());
        assertEquals(1, r.deliveries(10));
        assertEquals(0, r.deliveries(11));
        assertFalse(r.unacknowledged(60));
        assertTrue(r.unacknowledged(61));
    }

    @Test
    void backlogCountsReadyInFlightAndRedelivering() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        c.claim(1, A);
        c.release(1, A, true);
        c.claim(2, B);
        c.ack(2);
        assertEquals(new Backlog(1 + 7, 1, 1), c.backlog(10), "offset 1 visible again, 3-9 never offered");
    }

    @Test
    void purgeAcknowledgesAllButWhatIsInFlight() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A);
        c.claim(1, A);
        c.release(1, A, true);
        assertEquals(List.of(1L, 2L, 3L), c.purge(4));
        assertEquals(new Backlog(0, 1, 0), c.backlog(4));
        assertEquals(0, c.lowWater(), "the message in flight still holds the low water mark");
        assertEquals(4, c.readOffset());
    }

    @Test
    void takeHandsOverAnOffsetAheadOfTheReadOffsetLeavingTheSkippedVisible() {
        QueueCursor c = new QueueCursor(0, 0);
        assertTrue(c.take(3, A));
        assertFalse(c.take(3, B), "in flight already");
        assertEquals(0, c.nextCandidate(B, 10));
        assertEquals(new Backlog(3 + 6, 1, 0), c.backlog(10));
        assertTrue(c.ackDelivery(3, A));
        assertFalse(c.take(3, A), "acknowledged");
    }
}
