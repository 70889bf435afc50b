package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A decision too large for one record, written as a {@link RecordChain}: parts that change
 * nothing, then a last record that names them and, when dispatched, reads them back through the
 * {@link LogReader} and puts every reserved entry. Cut anywhere (at every record boundary of the
 * chain and inside every record, the CommitLog as of the cut and the ConsumeQueues as of before
 * the chain, as a power cut leaves them), the store recovers with all of the chain's entries or
 * none, and gives the offsets of a lost chain out again. Recovery from a checkpoint that lies
 * inside the chain still finds the parts below it.
 */
class RecordChainTest {

    private static final int SEGMENT = 16 * 1024;
    private static final int MAX_RECORD = 2048;
    private static final int HALVES = 600;
    /** Triples of (half offset, half size, queue offset) a part holds. */
    private static final int PER_PART = (MAX_RECORD - 256) / 20;

    @TempDir
    Path dir;

    @Test
    void aChainIsAppliedWholeOrNotAtAllAtEveryCutPoint() throws Exception {
        Path store = dir.resolve("store");
        Path before = dir.resolve("before");
        List<AppendResult> halves = new ArrayList<>();
        try (MessageStore s = MessageStore.open(config(store), new ChainListener())) {
            for (int i = 0; i < HALVES; i++) {
                halves.add(s.append(half(i), true).join());
            }
            s.checkpoint();
            s.closeAbruptly();
        }
        copyTree(store, before);
        List<long[]> chain = new ArrayList<>(); // [offset, size] of each record of the chain, the decision last
        try (MessageStore s = MessageStore.open(config(store), new ChainListener())) {
            List<QueueSlot> slots = Collections.nCopies(HALVES, new QueueSlot("q", 0));
            AppendResult last = s.appendChain(slots, (offsets, out) -> {
                List<Long> parts = new ArrayList<>();
                for (int from = 0; from < HALVES; from += PER_PART) {
                    int to = Math.min(HALVES, from + PER_PART);
                    parts.add(out.append(part(halves.subList(from, to), offsets, from)));
                }
                out.append(decision(parts));
            }, true).join();
            assertEquals(HALVES, readAll(s).size(), "the whole chain dispatched live");
            for (long at = halves.get(HALVES - 1).endOffset(); at < last.endOffset(); ) {
                MessageRecordView record = read(s, at);
                chain.add(new long[] {record.physicalOffset(), record.totalSize()});
                at = record.physicalOffset() + record.totalSize();
            }
            s.closeAbruptly();
        }
        assertTrue(chain.size() > 4, "the chain has parts: " + chain.size());
        assertTrue(chain.get(chain.size() - 1)[0] / SEGMENT > chain.get(0)[0] / SEGMENT, "the chain crosses a segment");
        Path after = dir.resolve("after");
        copyTree(store.resolve("commitlog"), after);
        long end = chain.get(chain.size() - 1)[0] + chain.get(chain.size() - 1)[1];
        List<Long> cuts = new ArrayList<>();
        for (long[] record : chain) {
            cuts.add(record[0]);
            cuts.add(record[0] + record[1] / 2);
        }
        cuts.add(end - 1);
        cuts.add(end);
        for (long cut : cuts) {
            restore(before, after, store, cut);
            try (MessageStore s = MessageStore.open(config(store), new ChainListener())) {
                List<ConsumeQueueEntry> entries = readAll(s);
                int expected = cut >= end ? HALVES : 0;
                assertEquals(expected, entries.size(), "entries after a cut at " + cut + " (chain ends at " + end + ")");
                for (int i = 0; i < entries.size(); i++) {
                    assertEquals(halves.get(i).physicalOffset(), entries.get(i).physicalOffset());
                }
                assertEquals(expected, s.append(TestRecords.record("q", 0, 1, 10), true).join().queueOffset(),
                        "the next offset given out after a cut at " + cut);
            }
        }
    }

    @Test
    void recoveryFromACheckpointInsideTheChainReadsThePartsBelowIt() throws Exception {
        Path store = dir.resolve("store");
        List<AppendResult> halves = new ArrayList<>();
        List<Long> parts = new ArrayList<>();
        try (MessageStore s = MessageStore.open(config(store), new ChainListener())) {
            for (int i = 0; i < HALVES; i++) {
                halves.add(s.append(half(i), true).join());
            }
            s.appendChain(Collections.nCopies(HALVES, new QueueSlot("q", 0)), (offsets, out) -> {
                for (int from = 0; from < HALVES; from += PER_PART) {
                    parts.add(out.append(part(halves.subList(from, Math.min(HALVES, from + PER_PART)), offsets, from)));
                }
                out.append(decision(parts));
            }, true).join();
            s.closeAbruptly();
        }
        long inside = parts.get(parts.size() - 1);
        deleteTree(store.resolve("consumequeue"));
        new CheckpointFile(store, ForceRecorder.NONE).write(inside);
        try (MessageStore s = MessageStore.open(config(store), new ChainListener())) {
            assertEquals(HALVES, readAll(s).size());
        }
    }

    @Test
    void aRecordOfTheChainTooLargeLeavesTheOffsetsToBeGivenOutAgain() {
        try (MessageStore s = MessageStore.open(config(dir), new ChainListener())) {
            AppendResult h = s.append(half(0), true).join();
            assertThrows(IllegalArgumentException.class, () -> s.appendChain(List.of(new QueueSlot("q", 0)),
                    (offsets, out) -> {
                        out.append(part(List.of(h), offsets, 0));
                        out.append(new MessageRecord(RecordFlags.of(RecordType.COMMIT), "$tx", 0, -1, 0, 0, 0,
                                new byte[0], new byte[MAX_RECORD]));
                    }, true));
            assertEquals(0, s.append(TestRecords.record("q", 0, 1, 10), true).join().queueOffset());
        }
    }

    private static StoreConfig config(Path directory) {
        return TestRecords.config(directory).withSegmentSize(SEGMENT).withMaxRecordSize(MAX_RECORD);
    }

    private static MessageRecord half(long seq) {
        return new MessageRecord(RecordFlags.of(RecordType.PREPARED), "q", 0, 7, 0, 0, 0, new byte[0],
                TestRecords.body(seq, 100));
    }

    private static MessageRecord part(List<AppendResult> halves, long[] offsets, int from) {
        ByteBuffer body = ByteBuffer.allocate(halves.size() * 20);
        for (int i = 0; i < halves.size(); i++) {
            body.putLong(halves.get(i).physicalOffset()).putInt(halves.get(i).size()).putLong(offsets[from + i]);
        }
        return new MessageRecord(RecordFlags.of(RecordType.TX_PART), "$tx", 0, -1, 0, 0, 0, new byte[0], body.array());
    }

    private static MessageRecord decision(List<Long> parts) {
        ByteBuffer body = ByteBuffer.allocate(parts.size() * 8);
        parts.forEach(body::putLong);
        return new MessageRecord(RecordFlags.of(RecordType.COMMIT), "$tx", 0, -1, 0, 0, 0, new byte[0], body.array());
    }

    /** The chain's rule: a TX_PART does nothing; a COMMIT reads its parts back and puts their entries. */
    private static final class ChainListener implements DispatchListener {

        private LogReader log;

        @Override
        public void readsFrom(LogReader reader) {
            log = reader;
        }

        @Override
        public void onRecord(MessageRecordView record, ConsumeQueueWriter queues) {
            if (record.type() != RecordType.COMMIT) {
                return;
            }
            ByteBuffer parts = record.body();
            while (parts.hasRemaining()) {
                MessageRecordView part = log.read(parts.getLong());
                ByteBuffer slots = part.body();
                while (slots.hasRemaining()) {
                    long half = slots.getLong();
                    int size = slots.getInt();
                    queues.put("q", 0, slots.getLong(), half, size, 0);
                }
            }
        }
    }

    private static List<ConsumeQueueEntry> readAll(MessageStore s) throws Exception {
        TestRecords.awaitDispatched(s);
        return s.readQueue("q", 0, 0, HALVES * 2);
    }

    private static MessageRecordView read(MessageStore s, long at) {
        try {
            return s.read(at);
        } catch (RecordReadException padding) {
            return s.read((at / SEGMENT + 1) * SEGMENT);
        }
    }

    /** The ConsumeQueues and checkpoint of {@code before}, the CommitLog of {@code after} zeroed from {@code cut} on. */
    private static void restore(Path before, Path after, Path store, long cut) throws IOException {
        deleteTree(store);
        copyTree(before, store);
        deleteTree(store.resolve("commitlog"));
        copyTree(after, store.resolve("commitlog"));
        try (Stream<Path> segments = Files.list(store.resolve("commitlog"))) {
            for (Path segment : segments.toList()) {
                long start = Long.parseLong(segment.getFileName().toString());
                long from = Math.max(0, cut - start);
                long length = Files.size(segment);
                if (from >= length) {
                    continue;
                }
                try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
                    channel.write(ByteBuffer.allocate((int) (length - from)), from);
                }
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("lock")) {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Collections.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
