package io.ramjet.server.broker.idempotence;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordDescriptor;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProducerTableTest {

    private static final long P = 0x7A11_0001L;
    private static final long Q = 0x7A11_0002L;

    private final ProducerTable table = new ProducerTable(new ProducerTableConfig(Duration.ofMinutes(1), 3));

    /** A dispatched record of {@code producer}'s message {@code sequence}, stored at {@code at} ms, offset {@code offset}. */
    private static MessageRecordView record(long producer, long sequence, long offset, long at) {
        MessageRecord record = new MessageRecord(RecordFlags.of(RecordType.NORMAL), "queue://q", 0, sequence, at, 0, 0,
                new byte[0], new byte[] {1}, producer, sequence);
        ByteBuffer buffer = ByteBuffer.allocate(MessageRecordDescriptor.recordLength(record));
        MessageRecordDescriptor.encode(buffer, 0, record, offset, at);
        return MessageRecordView.wrap(buffer);
    }

    private static MessageRecordView fence(long producer, long sequence, long heldUpTo, long offset, long at) {
        MessageRecord record = FenceRecord.of(producer, sequence, heldUpTo, at);
        ByteBuffer buffer = ByteBuffer.allocate(MessageRecordDescriptor.recordLength(record));
        MessageRecordDescriptor.encode(buffer, 0, record, offset, at);
        return MessageRecordView.wrap(buffer);
    }

    @Test
    void aFenceAnswersTheSameForEverySequenceItCoversAndMakesThemResends() {
        table.onRecord(record(P, 2, 0, 1_000));
        assertEquals(ProducerTable.Holding.UNKNOWN, table.holding(P, 5));
        table.onRecord(fence(P, 5, 2, 100, 1_000));
        assertEquals(ProducerTable.Holding.HELD, table.holding(P, 2));
        assertEquals(ProducerTable.Holding.FENCED, table.holding(P, 3));
        assertEquals(ProducerTable.Holding.FENCED, table.holding(P, 5));
        assertEquals(ProducerTable.Holding.UNKNOWN, table.holding(P, 6));
        assertTrue(table.resendOf(P, 5).isPresent(), "a late resend of a fenced sequence is a duplicate");
    }

    @Test
    void aFenceSurvivesTheSnapshot() throws Exception {
        table.onRecord(record(P, 2, 0, 1_000));
        table.onRecord(fence(P, 5, 2, 100, 1_000));
        ProducerTable restored = new ProducerTable(new ProducerTableConfig(Duration.ofMinutes(1), 3));
        restored.restore(ProducerSnapshot.decode(ProducerSnapshot.encode(table.save(10_000))));
        assertEquals(ProducerTable.Holding.HELD, restored.holding(P, 2));
        assertEquals(ProducerTable.Holding.FENCED, restored.holding(P, 3));
        assertEquals(-1, restored.lastOf(P).orElseThrow().queueOffset());
    }

    @Test
    void aSequenceAboveTheLastStoredIsNew() {
        table.onRecord(record(P, 1, 0, 1_000));
        assertTrue(table.resendOf(P, 2).isEmpty());
        assertEquals(0, table.duplicates());
    }

    @Test
    void anEqualOrLowerSequenceIsAResendAnsweredWithTheLastStored() {
        table.onRecord(record(P, 1, 0, 1_000));
        table.onRecord(record(P, 2, 100, 1_000));
        StoredSend last = table.resendOf(P, 2).orElseThrow();
        assertEquals(100, last.physicalOffset());
        assertEquals(2, last.sequence());
        assertTrue(table.resendOf(P, 1).isPresent());
        assertEquals(2, table.duplicates());
    }

    @Test
    void anotherProducerWithTheSameSequenceIsNew() {
        table.onRecord(record(P, 5, 0, 1_000));
        assertTrue(table.resendOf(Q, 5).isEmpty());
    }

    @Test
    void anAppendNotYetDispatchedAlreadyMakesItsResendADuplicate() {
        table.appended(new StoredSend(P, 1, 200, 90, 0, 1_000));
        assertEquals(200, table.resendOf(P, 1).orElseThrow().physicalOffset());
        table.onRecord(record(P, 1, 200, 1_000));
        assertTrue(table.resendOf(P, 1).isPresent());
        assertTrue(table.resendOf(P, 2).isEmpty());
    }

    @Test
    void aDispatchBehindTheNewestAppendKeepsTheAppend() {
        table.appended(new StoredSend(P, 2, 300, 90, 1, 1_000));
        table.onRecord(record(P, 1, 200, 1_000));
        assertEquals(2, table.resendOf(P, 2).orElseThrow().sequence());
    }

    @Test
    void aProducerIdleLongerThanTheExpiryIsForgottenByALaterRecord() {
        table.onRecord(record(P, 1, 0, 1_000));
        table.onRecord(record(Q, 1, 100, 1_000 + 60_000));
        assertTrue(table.resendOf(P, 1).isPresent(), "idle exactly the expiry: kept");
        table.onRecord(record(Q, 2, 200, 1_001 + 60_000));
        assertTrue(table.resendOf(P, 1).isEmpty());
        assertTrue(table.resendOf(Q, 2).isPresent());
    }

    @Test
    void beyondTheBoundTheLongestIdleIsForgotten() {
        table.onRecord(record(1, 1, 0, 1_000));
        table.onRecord(record(2, 1, 100, 1_001));
        table.onRecord(record(3, 1, 200, 1_002));
        table.onRecord(record(1, 2, 300, 1_003));
        table.onRecord(record(4, 1, 400, 1_004));
        assertEquals(Map.of(3L, 1L, 1L, 2L, 4L, 1L), table.sequences());
    }

    @Test
    void theSnapshotHoldsWhatTheLogBelowItsPositionSays() {
        table.onRecord(record(P, 1, 0, 1_000));
        table.onRecord(record(P, 2, 1_000, 1_000));
        table.onRecord(record(Q, 7, 2_000, 1_000));
        List<StoredSend> saved = table.save(1_000);
        assertEquals(1, saved.size(), "Q's only record lies above the position: left to the replay");
        assertEquals(1, saved.get(0).sequence(), "P's last lies above: the one before it is saved");
        assertEquals(List.of(2L, 7L), table.save(10_000).stream().map(StoredSend::sequence).toList());
    }

    @Test
    void aSnapshotRoundTripRestoresTheTable() throws Exception {
        table.onRecord(record(P, 3, 0, 1_000));
        table.onRecord(record(Q, 9, 500, 2_000));
        List<StoredSend> saved = table.save(10_000);
        ProducerTable restored = new ProducerTable(ProducerTableConfig.DEFAULT);
        restored.restore(ProducerSnapshot.decode(ProducerSnapshot.encode(saved)));
        assertEquals(table.sequences(), restored.sequences());
        assertEquals(saved, restored.save(10_000));
        assertTrue(restored.resendOf(Q, 9).isPresent());
        assertFalse(restored.resendOf(Q, 10).isPresent());
    }

    @Test
    void replayingARecordTheSnapshotHoldsChangesNothing() {
        table.onRecord(record(P, 3, 0, 1_000));
        table.restore(table.save(10_000));
        table.onRecord(record(P, 3, 0, 1_000));
        table.onRecord(record(P, 2, 0, 1_000));
        assertEquals(Map.of(P, 3L), table.sequences());
    }
}
