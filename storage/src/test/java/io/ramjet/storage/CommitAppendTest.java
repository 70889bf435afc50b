package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A COMMIT record that reserves queue offsets under the append lock and makes half records
 * visible through the dispatch listener, live and after recovery.
 */
class CommitAppendTest {

    @TempDir
    Path dir;

    /** NORMAL records as usual; a COMMIT's body lists (queue offset, physical offset, size) of queue "q"/0. */
    private static final DispatchListener LISTENER = TestRecords.normalMessagesThen((record, queues) -> {
        if (record.type() == RecordType.COMMIT) {
            ByteBuffer body = record.body();
            for (int at = 0; at < body.limit(); at += 20) {
                queues.put("q", 0, body.getLong(at), body.getLong(at + 8), body.getInt(at + 16), 0);
            }
        }
    });

    private static MessageRecord half(long seq) {
        MessageRecord r = TestRecords.record("q", 0, seq, 100);
        return new MessageRecord(RecordFlags.of(RecordType.PREPARED), r.destination(), 0, 42, r.bornTimestamp(), 0,
                r.tagSignature(), r.properties(), r.body());
    }

    private static AppendResult commit(MessageStore store, List<AppendResult> halves) {
        List<QueueSlot> slots = halves.stream().map(h -> new QueueSlot("q", 0)).toList();
        return store.append(slots, offsets -> {
            ByteBuffer body = ByteBuffer.allocate(20 * offsets.length);
            for (int i = 0; i < offsets.length; i++) {
                body.putLong(offsets[i]).putLong(halves.get(i).physicalOffset()).putInt(halves.get(i).size());
            }
            return new MessageRecord(RecordFlags.of(RecordType.COMMIT), "$tx", 0, -1, 0, 0, 0, new byte[0],
                    body.array());
        }, true).join();
    }

    /** Writes normal 0, halves 1 and 2, normal 3, then the commit: the queue reads 0, 3, 1, 2. */
    private List<AppendResult> interleave(MessageStore store) {
        List<AppendResult> halves = new ArrayList<>();
        store.append(TestRecords.record("q", 0, 0, 100), true).join();
        halves.add(store.append(half(1), true).join());
        halves.add(store.append(half(2), true).join());
        store.append(TestRecords.record("q", 0, 3, 100), true).join();
        return halves;
    }

    private static void assertQueueReads(MessageStore store, long... seqs) {
        List<ConsumeQueueEntry> entries = store.readQueue("q", 0, 0, 100);
        assertEquals(seqs.length, entries.size());
        for (int i = 0; i < seqs.length; i++) {
            assertEquals(i, entries.get(i).queueOffset());
            MessageRecordView view = store.read(entries.get(i).physicalOffset());
            TestRecords.assertIntact(view, seqs[i]);
        }
    }

    @Test
    void halvesStayOutOfTheQueueUntilTheCommitReservesConsecutiveOffsets() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir), LISTENER)) {
            List<AppendResult> halves = interleave(store);
            TestRecords.awaitDispatched(store);
            assertQueueReads(store, 0, 3);
            commit(store, halves);
            store.append(TestRecords.record("q", 0, 4, 100), true).join();
            TestRecords.awaitDispatched(store);
            assertQueueReads(store, 0, 3, 1, 2, 4);
        }
    }

    @Test
    void aFailedBuildGivesTheOffsetsBack() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir), LISTENER)) {
            assertThrows(IllegalStateException.class, () -> store.append(List.of(new QueueSlot("q", 0)), offsets -> {
                throw new IllegalStateException("no record");
            }, true));
            AppendResult next = store.append(TestRecords.record("q", 0, 0, 100), true).join();
            assertEquals(0, next.queueOffset());
        }
    }

    @Test
    void committedEntriesBeforeTheCheckpointSurviveACrash() throws Exception {
        MessageStore store = MessageStore.open(TestRecords.config(dir), LISTENER);
        commit(store, interleave(store));
        store.append(TestRecords.record("q", 0, 4, 100), true).join();
        TestRecords.awaitDispatched(store);
        store.checkpoint();
        store.append(TestRecords.record("q", 0, 5, 100), true).join();
        TestRecords.awaitDispatched(store);
        store.closeAbruptly();

        try (MessageStore reopened = MessageStore.open(TestRecords.config(dir), LISTENER)) {
            assertQueueReads(reopened, 0, 3, 1, 2, 4, 5);
            assertEquals(6, reopened.append(TestRecords.record("q", 0, 6, 100), true).join().queueOffset());
        }
    }

    @Test
    void aCommitAfterTheCheckpointIsReplayed() throws Exception {
        MessageStore store = MessageStore.open(TestRecords.config(dir), LISTENER);
        List<AppendResult> halves = interleave(store);
        TestRecords.awaitDispatched(store);
        store.checkpoint();
        commit(store, halves);
        TestRecords.awaitDispatched(store);
        store.closeAbruptly();

        try (MessageStore reopened = MessageStore.open(TestRecords.config(dir), LISTENER)) {
            assertQueueReads(reopened, 0, 3, 1, 2);
        }
    }

    @Test
    void rebuildingTheQueuesFromTheLogRestoresCommittedEntries() throws Exception {
        MessageStore store = MessageStore.open(TestRecords.config(dir), LISTENER);
        commit(store, interleave(store));
        TestRecords.awaitDispatched(store);
        store.close();
        RecoveryTestSupport.deleteConsumeQueues(dir);

        try (MessageStore reopened = MessageStore.open(TestRecords.config(dir), LISTENER)) {
            assertQueueReads(reopened, 0, 3, 1, 2);
        }
    }
}
