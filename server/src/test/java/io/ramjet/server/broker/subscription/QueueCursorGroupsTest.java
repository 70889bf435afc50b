package io.ramjet.server.broker.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The message group rules of one message queue, as the fetcher applies them through the cursor. */
class QueueCursorGroupsTest {

    private static final long A = 1, B = 2;
    private static final long NOW = 1_000_000;
    private static final MessageGroupPolicy NO_IDLE = new MessageGroupPolicy(true, Duration.ZERO, false);
    private static final MessageGroupPolicy IDLE_10S = new MessageGroupPolicy(true, Duration.ofSeconds(10), false);
    private static final GroupTag G = new GroupTag("g", false);
    private static final GroupTag G_LAST = new GroupTag("g", true);

    private final QueueCursor cursor = new QueueCursor(0, 0);

    private GroupAdmission admit(long offset, GroupTag tag, long consumer) {
        return cursor.admit(offset, tag, consumer, NOW, NO_IDLE);
    }

    private void claim(long offset, GroupTag tag, long consumer) {
        cursor.claim(offset, consumer, tag, NOW, NO_IDLE);
    }

    @Test
    void theFirstConsumerToTakeAGroupOwnsIt() {
        assertEquals(GroupAdmission.NEW, admit(0, G, A));
        claim(0, G, A);
        cursor.ackDelivery(0, A);
        assertEquals(GroupAdmission.HELD, admit(1, G, A));
        assertEquals(GroupAdmission.REFUSED, admit(1, G, B));
        assertEquals(1, cursor.groupsOwnedBy(A));
    }

    @Test
    void aMessageWithoutAGroupIsAnyonesToTake() {
        claim(0, G, A);
        assertEquals(GroupAdmission.HELD, admit(1, GroupTag.NONE, B));
    }

    @Test
    void aMessagePassedForThisFetchOnlyIsLookedAtAgainNextTime() {
        claim(0, G, A);
        assertEquals(1, cursor.nextCandidate(B, 10));
        cursor.pass(1, G);
        assertEquals(G, cursor.groupOf(1));
        assertEquals(2, cursor.nextCandidate(B, 10, 2, false));
        assertEquals(1, cursor.nextCandidate(B, 10), "the scan floor stays at the passed message");
        assertEquals(1, cursor.nextCandidate(A, 10));
    }

    @Test
    void aMessageOfAnotherConsumersGroupIsSkippedUntilTheGroupIsFree() {
        claim(0, G, A);
        claim(1, G, A);
        cursor.ackDelivery(0, A);
        assertEquals(2, cursor.nextCandidate(B, 10));
        cursor.pass(2, G);
        assertEquals(3, cursor.nextCandidate(B, 10, 3, true));
        assertEquals(3, cursor.nextCandidate(B, 10), "the floor moved past the other consumer's group");
        cursor.releaseAll(A);
        assertEquals(1, cursor.nextCandidate(B, 10), "the group is free: B looks again from the bottom");
    }

    @Test
    void aGroupWhoseOwnerLeftWaitsForItsMessagesStillInFlight() {
        claim(0, G, A);
        claim(1, G, A);
        cursor.releaseUnseen(A, Set.of(0L)); // A's session still holds offset 0
        assertEquals(GroupAdmission.REFUSED, admit(1, G, B), "strict order: offset 0 is still in flight");
        cursor.ackDelivery(0, A);
        assertTrue(cursor.takeGroupFreed());
        assertEquals(GroupAdmission.NEW, admit(1, G, B));
        assertEquals(1, cursor.nextCandidate(B, 10), "the released message comes before the group's later ones");
    }

    @Test
    void aLostOwnersGroupMovesWithItsReleasedMessagesFirst() {
        claim(0, G, A);
        claim(1, G, A);
        cursor.releaseAll(A);
        assertEquals(0, cursor.nextCandidate(B, 10));
        assertEquals(GroupAdmission.NEW, admit(0, G, B));
    }

    @Test
    void aClosingMessageFreesTheGroupOnceAcknowledged() {
        claim(0, G, A);
        claim(1, G_LAST, A);
        assertEquals(GroupAdmission.REFUSED, admit(2, G, B));
        cursor.ackDelivery(0, A);
        assertFalse(cursor.takeGroupFreed());
        cursor.ackDelivery(1, A);
        assertTrue(cursor.takeGroupFreed());
        assertEquals(GroupAdmission.NEW, admit(2, G, B));
    }

    @Test
    void aRolledBackMessageKeepsItsGroupWithItsOwner() {
        claim(0, G, A);
        claim(1, G, A);
        cursor.release(0, A, true);
        cursor.release(1, A, true);
        assertEquals(GroupAdmission.REFUSED, admit(0, G, B));
        assertEquals(0, cursor.nextCandidate(A, 10));
        assertEquals(GroupAdmission.HELD, admit(0, G, A));
    }

    @Test
    void anIdleGroupIsFreeAfterTheTimeoutButNotWhileAMessageIsInFlight() {
        cursor.claim(0, A, G, NOW, IDLE_10S);
        assertEquals(GroupAdmission.REFUSED, cursor.admit(1, G, B, NOW + 20_000, IDLE_10S));
        cursor.ackDelivery(0, A);
        long acked = System.currentTimeMillis();
        assertEquals(GroupAdmission.REFUSED, cursor.admit(1, G, B, acked + 5_000, IDLE_10S));
        assertEquals(GroupAdmission.NEW, cursor.admit(1, G, B, acked + 11_000, IDLE_10S));
    }

    @Test
    void aMessageTheOwnersSelectorRefusedGoesToAnotherWithoutMovingTheGroup() {
        claim(0, G, A);
        cursor.ackDelivery(0, A);
        cursor.exclude(1, A);
        assertEquals(GroupAdmission.HELD, admit(1, G, B));
        claim(1, G, B);
        assertEquals(GroupAdmission.REFUSED, admit(2, G, B), "the group is still A's");
        cursor.ackDelivery(1, B);
        assertEquals(GroupAdmission.HELD, admit(2, G, A));
    }

    @Test
    void rebalancingFreesGroupsOnceNothingOfThemIsInFlight() {
        claim(0, G, A);
        cursor.releaseGroupOwners();
        assertEquals(GroupAdmission.REFUSED, admit(1, G, B));
        cursor.ackDelivery(0, A);
        assertEquals(GroupAdmission.NEW, admit(1, G, B));
    }

    @Test
    void aTransactionHoldingAGroupMessageKeepsTheGroupBusy() {
        claim(0, G, A);
        cursor.transfer(0, A, 99);
        cursor.releaseAll(A);
        assertEquals(GroupAdmission.REFUSED, admit(1, G, B));
        cursor.release(0, 99, true);
        assertEquals(GroupAdmission.NEW, admit(0, G, B));
    }
}
