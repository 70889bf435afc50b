package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TransactedMoveTest extends EmbeddedBrokerTest {

    @Test
    void movesEveryMessageInOrderAndLeavesTheSourceEmpty() throws Exception {
        List<String> orders = List.of("a", "b", "c", "d");
        TransactedMove.fill(factory, "move.in", orders);

        assertEquals(orders, TransactedMove.moveAll(factory, "move.in", "move.out"));

        assertQueueEmpty("move.in");
        assertEquals(orders, drainTexts("move.out"));
    }

    @Test
    void aRolledBackMoveLeavesTheMessageOnTheSourceAndNothingOnTheTarget() throws Exception {
        TransactedMove.fill(factory, "rollback.in", List.of("only"));

        assertEquals("only", TransactedMove.moveOneAndRollBack(factory, "rollback.in", "rollback.out"));

        assertQueueEmpty("rollback.out");
        assertEquals(List.of("only"), drainTexts("rollback.in"));
    }

    @Test
    void aMoveRetriedAfterARollbackDeliversEachMessageExactlyOnce() throws Exception {
        List<String> orders = List.of("w", "x", "y", "z");
        TransactedMove.fill(factory, "retry.in", orders);

        TransactedMove.moveOneAndRollBack(factory, "retry.in", "retry.out");
        List<String> moved = TransactedMove.moveAll(factory, "retry.in", "retry.out");

        assertEquals(orders, moved.stream().sorted().toList());
        assertQueueEmpty("retry.in");
        assertEquals(orders, drainTexts("retry.out").stream().sorted().toList(), "no copy lost, none duplicated");
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        TransactedMove.main(new String[] {url()});
        assertQueueEmpty(TransactedMove.SOURCE);
        assertEquals(List.of("order 1", "order 2", "order 3"), drainTexts(TransactedMove.TARGET).stream().sorted().toList());
    }
}
