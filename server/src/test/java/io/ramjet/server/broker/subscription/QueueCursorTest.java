package io.ramjet.server.broker.subscription;

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
        Delivery d = c.claim(c.nextCandidate(A, 10), A, 1_000);
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
        c.claim(0, A, 1_000);
        assertEquals(1, c.nextCandidate(B, 10));
        assertEquals(1, c.nextCandidate(A, 10));
    }

    @Test
    void competingConsumersGetDisjointOffsets() {
        QueueCursor c = new QueueCursor(0, 0);
        long[] got = new long[6];
        for (int i = 0; i < 6; i++) {
            long consumer = i % 2 == 0 ? A : B;
            got[i] = c.claim(c.nextCandidate(consumer, 6), consumer, 1_000).offset();
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), java.util.Arrays.stream(got).boxed().toList());
        assertEquals(-1, c.nextCandidate(A, 6));
    }

    @Test
    void ackAdvancesLowWaterOnlyOverAContiguousPrefix() {
        QueueCursor c = new QueueCursor(0, 0);
        for (int i = 0; i < 3; i++) {
            c.claim(i, A, 1_000);
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
        c.claim(0, A, 1_000);
        c.ack(0);
        assertFalse(c.ack(0));
        assertEquals(-1, c.nextCandidate(A, 1));
        assertThrows(IllegalArgumentException.class, () -> c.claim(0, A, 1_000));
    }

    @Test
    void countedReleaseRedeliversWithIncreasedCount() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A, 1_000);
        assertEquals(1, c.release(0, true));
        Delivery again = c.claim(c.nextCandidate(B, 1), B, 1_000);
        assertEquals(2, again.deliveryCount());
        assertTrue(again.redelivered());
    }

    @Test
    void uncountedReleaseOfUnseenPrefetchKeepsTheCount() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A, 1_000);
        assertEquals(0, c.release(0, false));
        assertFalse(c.claim(0, B, 1_000).redelivered());
    }

    @Test
    void visibilityTimeoutMakesOnlyExpiredMessagesVisible() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A, 100);
        c.claim(1, A, 500);
        List<Delivery> expired = c.expire(200);
        assertEquals(1, expired.size());
        assertEquals(0, expired.get(0).offset());
        assertEquals(1, c.deliveries(0));
        assertEquals(0, c.nextCandidate(B, 2));
        assertEquals(1, c.inFlightCount());
    }

    @Test
    void releaseAllReturnsEverythingAConsumerHeld() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A, 1_000);
        c.claim(1, B, 1_000);
        c.claim(2, A, 1_000);
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
        assertFalse(c.claim(0, B, 1_000).redelivered());
    }

    @Test
    void aCountedRedeliveryOffersTheMessageAgainToAConsumerThatRefusedIt() {
        QueueCursor c = new QueueCursor(0, 0);
        c.exclude(c.nextCandidate(A, 1), A);
        c.claim(c.nextCandidate(B, 1), B, 1_000);
        c.release(0, false);
        assertEquals(-1, c.nextCandidate(A, 1), "an uncounted release changes nothing a selector sees");
        c.claim(c.nextCandidate(B, 1), B, 1_000);
        c.release(0, true);
        assertEquals(0, c.nextCandidate(A, 1), "JMSXDeliveryCount changed: A's selector may take it now");
    }

    @Test
    void releasingAMessageNotInFlightIsRefused() {
        QueueCursor c = new QueueCursor(0, 0);
        assertEquals(-1, c.release(0, true));
        c.claim(0, A, 1_000);
        c.release(0, true);
        assertEquals(-1, c.release(0, true));
    }

    @Test
    void claimingAnInFlightMessageIsRefused() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, A, 1_000);
        assertThrows(IllegalStateException.class, () -> c.claim(0, B, 1_000));
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
            c.claim(i, A, 1_000);
        }
        c.ack(0);
        c.ack(2);
        c.release(1, true);
        QueueCursor r = QueueCursor.restore(0, c.lowWater(), c.readOffset(), c.pendingOffsets());
        assertEquals(1, r.lowWater());
        assertEquals(4, r.readOffset());
        assertEquals(1, r.deliveries(1));
        assertEquals(1, r.nextCandidate(A, 4));
        assertEquals(2, r.claim(1, A, 1_000).deliveryCount());
        assertEquals(3, r.nextCandidate(A, 4));
    }

    @Test
    void aMessageReleasedBelowAConsumersScanFloorIsOfferedToItAgain() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(c.nextCandidate(B, 10), B, 1_000);
        for (int i = 1; i < 5; i++) {
            c.exclude(c.nextCandidate(A, 10), A);
        }
        assertEquals(5, c.nextCandidate(A, 10));
        c.release(0, true);
        assertEquals(0, c.nextCandidate(A, 10));
    }

    @Test
    void aMessageExpiredBelowAConsumersScanFloorIsOfferedToItAgain() {
        QueueCursor c = new QueueCursor(0, 0);
        c.claim(0, B, 100);
        c.exclude(c.nextCandidate(A, 3), A);
        c.exclude(c.nextCandidate(A, 3), A);
        assertEquals(-1, c.nextCandidate(A, 3));
        c.expire(200);
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
            assertEquals(i, c.claim(c.nextCandidate(B, 100), B, 1_000).offset());
        }
    }
}
