package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replica store written from another store's raw bytes holds the same log and the same queues. */
class ReplicatedAppendTest {

    @TempDir
    Path master;
    @TempDir
    Path replica;

    /** Copies everything the source has that the target lacks, in chunks of about {@code chunk} bytes. */
    private static void copy(MessageStore source, MessageStore target, int chunk) throws Exception {
        while (target.maxPhysicalOffset() < source.maxPhysicalOffset()) {
            long from = target.maxPhysicalOffset();
            ByteBuffer bytes = source.readReplicable(from, chunk);
            assertTrue(bytes.remaining() > 0, "bytes at " + from);
            target.appendReplicated(from, bytes).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void replicaHoldsTheSameBytesAtTheSameOffsetsAcrossRollovers() throws Exception {
        try (MessageStore source = MessageStore.open(TestRecords.config(master));
             MessageStore target = MessageStore.open(TestRecords.config(replica))) {
            for (int i = 0; i < 500; i++) {
                source.append(TestRecords.record("orders", i % 3, i, 100 + i % 700), true).join();
            }
            copy(source, target, 3_000);
            assertTrue(source.segmentCount() > 10);
            assertEquals(source.maxPhysicalOffset(), target.maxPhysicalOffset());
            assertEquals(source.segmentCount(), target.segmentCount());
            long offset = 0;
            while (offset < source.maxPhysicalOffset()) {
                ByteBuffer a = source.readReplicable(offset, 1 << 20);
                ByteBuffer b = target.readReplicable(offset, 1 << 20);
                assertEquals(a, b, "bytes at " + offset);
                offset += a.remaining();
            }
            TestRecords.awaitDispatched(source);
            TestRecords.awaitDispatched(target);
            for (int q = 0; q < 3; q++) {
                assertEquals(source.maxQueueOffset("orders", q), target.maxQueueOffset("orders", q));
                assertEquals(source.readQueue("orders", q, 0, 1_000), target.readQueue("orders", q, 0, 1_000));
            }
            assertTrue(target.flushedOffset() >= target.maxPhysicalOffset());
        }
    }

    @Test
    void replicaRefusesAGapAnOverlapAndBytesThatAreNotRecordsWrittenThere() throws Exception {
        try (MessageStore source = MessageStore.open(TestRecords.config(master));
             MessageStore target = MessageStore.open(TestRecords.config(replica))) {
            AppendResult first = source.append(TestRecords.record("orders", 0, 1, 100), true).join();
            AppendResult second = source.append(TestRecords.record("orders", 0, 2, 100), true).join();
            ByteBuffer secondBytes = source.readReplicable(second.physicalOffset(), 1);
            assertThrows(StoreException.class, () -> target.appendReplicated(second.physicalOffset(), secondBytes));
            assertThrows(StoreException.class, () -> target.appendReplicated(0, secondBytes));
            target.appendReplicated(0, source.readReplicable(first.physicalOffset(), 1)).get(10, TimeUnit.SECONDS);
            ByteBuffer garbage = ByteBuffer.allocate(secondBytes.remaining());
            garbage.putInt(0, secondBytes.remaining());
            assertThrows(StoreException.class, () -> target.appendReplicated(second.physicalOffset(), garbage));
            assertEquals(second.physicalOffset(), target.maxPhysicalOffset());
        }
    }

    @Test
    void readingFromTheMiddleOfARecordIsRefused() throws Exception {
        try (MessageStore source = MessageStore.open(TestRecords.config(master))) {
            source.append(TestRecords.record("orders", 0, 1, 100), true).join();
            assertThrows(RecordReadException.class, () -> source.readReplicable(4, 100));
            assertEquals(0, source.readReplicable(source.maxPhysicalOffset(), 100).remaining());
        }
    }

    @Test
    void durableAppendsWaitForTheReplicationGate() throws Exception {
        CompletableFuture<Void> replicated = new CompletableFuture<>();
        try (MessageStore store = MessageStore.open(TestRecords.config(master), DispatchListener.normalMessages(),
                end -> replicated)) {
            CompletableFuture<AppendResult> durable = store.append(TestRecords.record("orders", 0, 1, 10), true);
            CompletableFuture<AppendResult> notWaiting = store.append(TestRecords.record("orders", 0, 2, 10), false);
            assertTrue(notWaiting.isDone());
            assertEquals(List.of(false), List.of(durable.isDone()));
            replicated.complete(null);
            assertEquals(0, durable.get(10, TimeUnit.SECONDS).physicalOffset());
        }
    }
}
