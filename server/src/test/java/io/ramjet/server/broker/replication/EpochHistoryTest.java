package io.ramjet.server.broker.replication;

import io.ramjet.storage.ForceRecorder;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.EpochEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a slave's log stops agreeing with its master's, from their epoch histories; the history file. */
class EpochHistoryTest {

    private static EpochEntry e(int epoch, long start) {
        return new EpochEntry(epoch, start);
    }

    @Test
    void aSlaveBehindInTheSameEpochKeepsAllItHas() {
        assertEquals(500, EpochHistory.lastCommonOffset(List.of(e(1, 0)), 500, List.of(e(1, 0)), 900));
    }

    @Test
    void aTailWrittenUnderAnOlderEpochIsCutWhereTheNewMastersEpochBegan() {
        List<EpochEntry> master = List.of(e(1, 0), e(2, 300));
        assertEquals(300, EpochHistory.lastCommonOffset(List.of(e(1, 0)), 450, master, 700));
    }

    @Test
    void aSlaveThatFollowedTheNewEpochKeepsItsPartOfIt() {
        List<EpochEntry> master = List.of(e(1, 0), e(2, 300), e(3, 800));
        assertEquals(600, EpochHistory.lastCommonOffset(List.of(e(1, 0), e(2, 300)), 600, master, 900));
        assertEquals(800, EpochHistory.lastCommonOffset(List.of(e(1, 0), e(2, 300)), 1_000, master, 900));
    }

    @Test
    void anEpochBothHoldFromDifferentOffsetsIsNoCommonGround() {
        List<EpochEntry> master = List.of(e(1, 0), e(2, 300));
        assertEquals(200, EpochHistory.lastCommonOffset(List.of(e(1, 0), e(2, 200)), 400, master, 500));
    }

    @Test
    void aLogWrittenBeforeAnyEpochAgreesUpToTheMastersFirstEpoch() {
        assertEquals(100, EpochHistory.lastCommonOffset(List.of(), 250, List.of(e(1, 100)), 400));
        assertEquals(0, EpochHistory.lastCommonOffset(List.of(), 250, List.of(e(1, 0)), 400));
        assertEquals(0, EpochHistory.lastCommonOffset(List.of(), 0, List.of(e(1, 0)), 400));
    }

    @Test
    void theFileKeepsItsEntriesAcrossLoadsAndDropsThosePastATruncation(@TempDir Path dir) {
        EpochFile file = new EpochFile(dir, ForceRecorder.NONE);
        file.begin(1, 0);
        file.begin(1, 500);
        file.begin(2, 300);
        file.begin(3, 800);
        assertEquals(List.of(e(1, 0), e(2, 300), e(3, 800)), new EpochFile(dir, ForceRecorder.NONE).entries());
        assertEquals(2, file.epochAt(799));
        assertEquals(800, file.epochEndAfter(300));
        file.truncate(500);
        assertEquals(List.of(e(1, 0), e(2, 300)), new EpochFile(dir, ForceRecorder.NONE).entries());
    }
}
