package io.ramjet.controller;

import io.ramjet.model.EpochEntry;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EpochHistoryTest {

    private final EpochHistory history = EpochHistory.EMPTY.begin(0).begin(1_000).begin(1_500);

    @Test
    void epochsAreNumberedFromOneInOrder() {
        assertEquals(3, history.lastEpoch());
        assertEquals(new EpochEntry(2, 1_000), history.entries().get(1));
    }

    @Test
    void aReturningMasterCutsItsLogAtTheStartOfTheNextEpoch() {
        assertEquals(1_000, history.truncationPoint(1, 1_200));
    }

    @Test
    void aReplicaThatNeverReachedTheNextEpochsStartKeepsItsLog() {
        assertEquals(900, history.truncationPoint(1, 900));
    }

    @Test
    void aReplicaOfTheCurrentEpochKeepsItsLog() {
        assertEquals(2_000, history.truncationPoint(3, 2_000));
    }
}
