package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.model.TxState;
import org.junit.jupiter.api.Test;

/** What a connection answers to a broker's check-back. */
class TransactionLedgerTest {

    @Test
    void anOpenTransactionIsOpen() {
        TransactionLedger ledger = new TransactionLedger(4);
        ledger.opened(7);
        assertEquals(TxState.OPEN, ledger.stateOf(7));
    }

    @Test
    void anEndedTransactionIsRememberedWithItsOutcome() {
        TransactionLedger ledger = new TransactionLedger(4);
        ledger.opened(1);
        ledger.opened(2);
        ledger.ended(1, true);
        ledger.ended(2, false);
        assertEquals(TxState.COMMITTED, ledger.stateOf(1));
        assertEquals(TxState.ROLLED_BACK, ledger.stateOf(2));
    }

    @Test
    void onlyTheLastEndedAreRemembered() {
        TransactionLedger ledger = new TransactionLedger(2);
        for (long id = 1; id <= 3; id++) {
            ledger.opened(id);
            ledger.ended(id, true);
        }
        assertEquals(TxState.UNKNOWN, ledger.stateOf(1));
        assertEquals(TxState.COMMITTED, ledger.stateOf(2));
        assertEquals(TxState.COMMITTED, ledger.stateOf(3));
    }

    @Test
    void aTransactionNeverSeenOrForgottenIsUnknown() {
        TransactionLedger ledger = new TransactionLedger(2);
        ledger.opened(5);
        ledger.forget(5);
        assertEquals(TxState.UNKNOWN, ledger.stateOf(5));
        assertEquals(TxState.UNKNOWN, ledger.stateOf(6));
    }

    @Test
    void aLedgerNeedsRoom() {
        assertThrows(IllegalArgumentException.class, () -> new TransactionLedger(0));
    }
}
