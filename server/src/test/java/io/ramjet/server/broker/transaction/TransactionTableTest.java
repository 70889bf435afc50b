package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.record.Half;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransactionTableTest {

    private static Half half(long offset) {
        return new Half(offset, 100, "Q:orders", 0, 0, 0, 0, 0);
    }

    @Test
    void retentionKeepsTheHalvesOfUndecidedTransactions() {
        TransactionTable table = new TransactionTable();
        table.addHalf(1, half(500), 0);
        table.addHalf(1, half(900), 0);
        assertEquals(500, table.oldestNeeded(10_000));
        table.decided(1, "", TxState.ROLLED_BACK);
        assertEquals(10_000, table.oldestNeeded(10_000));
    }

    @Test
    void retentionKeepsCommittedHalvesWhileTheirCommitIsAboveTheQueuesBound() {
        TransactionTable table = new TransactionTable();
        table.committedHalves(2_000, 300);
        assertEquals(300, table.oldestNeeded(1_500));
        assertEquals(300, table.oldestNeeded(2_000));
        // every queue's low-water entry is past the commit: its entries were all consumed
        assertEquals(2_500, table.oldestNeeded(2_500));
        assertEquals(1_500, table.oldestNeeded(1_500));
    }

    @Test
    void manyCommitsAreMergedWithoutKeepingLess() {
        TransactionTable table = new TransactionTable();
        int commits = TransactionTable.COMMITTED_HALVES_LIMIT * 3;
        for (int i = 1; i <= commits; i++) {
            table.committedHalves(i * 1_000L, i * 1_000L - 10);
        }
        assertTrue(table.save().committedHalves().size() <= TransactionTable.COMMITTED_HALVES_LIMIT);
        long bound = commits / 2 * 1_000L;
        long oldest = table.oldestNeeded(bound);
        assertTrue(oldest <= bound - 10, "keeps the halves of every commit at or above the bound: " + oldest);
        assertEquals(commits * 1_000L + 1, table.oldestNeeded(commits * 1_000L + 1));
    }

    @Test
    void aSendToARolledBackTransactionIsRefused() {
        TransactionTable table = new TransactionTable();
        table.decided(5, "", TxState.ROLLED_BACK);
        BrokerException refused = assertThrows(BrokerException.class, () -> table.open(5, null));
        assertEquals(Refusal.TX_ROLLED_BACK, refused.refusal());
    }

    @Test
    void decisionsAreRememberedByIdAndByXid() {
        DecisionMemory memory = new DecisionMemory(2);
        memory.remember(1, "x1", TxState.COMMITTED);
        memory.remember(2, "", TxState.ROLLED_BACK);
        memory.remember(3, "", TxState.COMMITTED);
        assertEquals(List.of(), memory.of(1, "").stream().toList(), "the oldest id is forgotten first");
        assertEquals(TxState.COMMITTED, memory.of(0, "x1").orElseThrow());
        assertEquals(TxState.ROLLED_BACK, memory.of(2, "").orElseThrow());
    }

    @Test
    void theSnapshotHoldsEachRememberedDecisionOnceOldestFirst() {
        DecisionMemory memory = new DecisionMemory(3);
        memory.remember(1, "x1", TxState.COMMITTED);
        memory.remember(0, "x2", TxState.ROLLED_BACK);
        memory.remember(3, "", TxState.COMMITTED);
        memory.remember(4, "x4", TxState.ROLLED_BACK);
        assertEquals(List.of(new DecisionMemory.Decision(1, "x1", TxState.COMMITTED),
                new DecisionMemory.Decision(3, "", TxState.COMMITTED),
                new DecisionMemory.Decision(4, "x4", TxState.ROLLED_BACK),
                new DecisionMemory.Decision(0, "x2", TxState.ROLLED_BACK)), memory.all());
        memory.remember(5, "", TxState.COMMITTED);
        assertEquals(List.of(new DecisionMemory.Decision(3, "", TxState.COMMITTED),
                new DecisionMemory.Decision(4, "x4", TxState.ROLLED_BACK),
                new DecisionMemory.Decision(5, "", TxState.COMMITTED),
                new DecisionMemory.Decision(1, "x1", TxState.COMMITTED),
                new DecisionMemory.Decision(0, "x2", TxState.ROLLED_BACK)), memory.all(),
                "a decision forgotten by id is still remembered by its xid");
    }
}
