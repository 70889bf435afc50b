package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss, not only a killed process: a recorder keeps, for every file of the store, the bytes
 * its completed forces made durable; a "power cut" at a random instant rewrites every file as of
 * its last forces (everything else zeroed, as a lost page reads) and the store opens on that
 * image. Under concurrent persistent and non-persistent sends and transactions (a half, then a
 * COMMIT whose entry in queue {@code tx} points back at the half, as the broker's commits do), with
 * checkpoints every few milliseconds (a checkpoint forces the ConsumeQueues), at many cut points:
 * recovery never fails, every append whose durable future completed is there, and no ConsumeQueue
 * entry points at a record that is gone or at a half whose COMMIT is gone.
 */
class PowerCutTest {

    private static final int SEGMENT = 16 * 1024;
    private static final int CUTS = 40;
    /** Each force of the CommitLog takes as long as a disk's would, so that cuts fall inside forces too. */
    private static final Runnable SLOW_DISK = () -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));

    @TempDir
    Path dir;

    private final Images images = new Images();

    @Test
    void everyDurableAppendSurvivesAPowerCutAndNoEntryOutlivesItsRecord() throws Exception {
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        Set<Long> durableSends = ConcurrentHashMap.newKeySet();
        Set<Long> durableCommits = ConcurrentHashMap.newKeySet();
        AtomicLong sequence = new AtomicLong();
        for (int cut = 0; cut < CUTS; cut++) {
            MessageStore store = MessageStore.open(config(), listener());
            store.beforeForce(SLOW_DISK);
            check(store, durableSends, durableCommits, "cut " + cut + " (seed " + seed + ")");
            List<Thread> load = new ArrayList<>();
            Writers writers = new Writers(store, sequence, durableSends, durableCommits);
            for (Runnable writer : List.<Runnable>of(writers::persistentSends, writers::persistentSends,
                    writers::nonPersistentSends, writers::transactions)) {
                Thread thread = new Thread(writer, "writer");
                thread.start();
                load.add(thread);
            }
            Thread.sleep(5 + random.nextInt(120)); // the random instant of the cut, not a condition
            Set<Long> sends = Set.copyOf(durableSends);
            Set<Long> commits = Set.copyOf(durableCommits);
            Map<Path, byte[]> image = images.snapshot();
            writers.stop();
            for (Thread t : load) {
                t.join();
            }
            store.closeAbruptly();
            powerCut(image);
            durableSends.retainAll(sends);
            durableCommits.retainAll(commits);
            images.reset(image);
        }
        MessageStore store = MessageStore.open(config(), listener());
        try {
            check(store, durableSends, durableCommits, "the last cut (seed " + seed + ")");
            assertFalse(durableSends.isEmpty(), "no send completed");
            assertFalse(durableCommits.isEmpty(), "no commit completed");
        } finally {
            store.close();
        }
    }

    private StoreConfig config() {
        return TestRecords.config(dir).withSegmentSize(SEGMENT).withCheckpointInterval(Duration.ofMillis(5))
                .withForceRecorder(images);
    }

    /** NORMAL records into their queues; a COMMIT's entry in {@code tx} points at the half it names. */
    private static DispatchListener listener() {
        return TestRecords.normalMessagesThen((record, queues) -> {
            if (record.type() == RecordType.COMMIT) {
                long[] half = halfOf(record);
                queues.put("tx", 0, record.queueOffset(), half[0], (int) half[1], 0);
            }
        });
    }

    private static long[] halfOf(MessageRecordView commit) {
        ByteBuffer properties = commit.properties();
        byte[] bytes = new byte[properties.remaining()];
        properties.get(0, bytes);
        String[] parts = new String(bytes, StandardCharsets.UTF_8).split(",");
        return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])};
    }

    /** What the store must hold after a cut: see the class comment. */
    private static void check(MessageStore store, Set<Long> durableSends, Set<Long> durableCommits, String when) {
        Map<Long, Long> committedHalves = new HashMap<>(); // half offset -> its seq
        Set<Long> halves = new HashSet<>();
        long position = store.minPhysicalOffset();
        while (position < store.maxPhysicalOffset()) {
            MessageRecordView record;
            try {
                record = store.read(position);
            } catch (RecordReadException padding) {
                position = (position / SEGMENT + 1) * SEGMENT;
                continue;
            }
            if (record.type() == RecordType.PREPARED) {
                halves.add(position);
            } else if (record.type() == RecordType.COMMIT) {
                long[] half = halfOf(record);
                committedHalves.put(half[0], half[2]);
            }
            position += record.totalSize();
        }
        Set<Long> found = new HashSet<>();
        for (int queueId = 0; queueId < 2; queueId++) {
            for (ConsumeQueueEntry entry : entries(store, "q", queueId)) {
                MessageRecordView record = store.read(entry.physicalOffset()); // throws if it is gone
                found.add(TestRecords.seqOf(record));
            }
        }
        Set<Long> missing = new HashSet<>(durableSends);
        missing.removeAll(found);
        assertEquals(Set.of(), missing, "durable sends missing after " + when);
        Set<Long> commitsFound = new HashSet<>();
        for (ConsumeQueueEntry entry : entries(store, "tx", 0)) {
            assertTrue(halves.contains(entry.physicalOffset()), "tx entry at a half that is gone after " + when);
            assertTrue(committedHalves.containsKey(entry.physicalOffset()),
                    "tx entry " + entry.queueOffset() + " survives without its COMMIT after " + when);
            commitsFound.add(committedHalves.get(entry.physicalOffset()));
        }
        Set<Long> commitsMissing = new HashSet<>(durableCommits);
        commitsMissing.removeAll(commitsFound);
        assertEquals(Set.of(), commitsMissing, "durable commits missing after " + when);
    }

    private static List<ConsumeQueueEntry> entries(MessageStore store, String destination, int queueId) {
        List<ConsumeQueueEntry> all = new ArrayList<>();
        long next = store.minQueueOffset(destination, queueId);
        List<ConsumeQueueEntry> batch;
        while (!(batch = store.readQueue(destination, queueId, next, 1000)).isEmpty()) {
            all.addAll(batch);
            next = batch.get(batch.size() - 1).queueOffset() + 1;
        }
        return all;
    }

    /** Rewrites every file of the store as {@code image} says it is on the disk; the lock file aside. */
    private void powerCut(Map<Path, byte[]> image) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("lock")).toList();
        }
        for (Path file : files) {
            byte[] durable = image.getOrDefault(file, new byte[0]);
            long length = Math.max(Files.size(file), durable.length);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap(durable), 0);
                ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
                for (long at = durable.length; at < length; at += zeros.capacity()) {
                    zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
                    channel.write(zeros, at);
                }
            }
        }
    }

    /** The durable bytes of every file, as forces report them. */
    private static final class Images implements ForceRecorder {

        private final Map<Path, byte[]> files = new HashMap<>();

        @Override
        public synchronized void forced(Path file, long position, ByteBuffer bytes) {
            byte[] image = files.getOrDefault(file, new byte[0]);
            int end = (int) position + bytes.remaining();
            if (image.length < end) {
                image = Arrays.copyOf(image, end);
            }
            bytes.duplicate().get(image, (int) position, bytes.remaining());
            files.put(file, image);
        }

        @Override
        public synchronized void replaced(Path file, ByteBuffer bytes) {
            byte[] image = new byte[bytes.remaining()];
            bytes.duplicate().get(image);
            files.put(file, image);
        }

        @Override
        public synchronized void renamed(Path from, Path to) {
            byte[] image = files.remove(from);
            if (image != null) {
                files.put(to, image);
            }
        }

        synchronized Map<Path, byte[]> snapshot() {
            Map<Path, byte[]> copy = new HashMap<>();
            files.forEach((path, bytes) -> copy.put(path, bytes.clone()));
            return copy;
        }

        synchronized void reset(Map<Path, byte[]> image) {
            files.clear();
            files.putAll(image);
        }
    }

    /** The load: appends until stopped, recording what was acknowledged as durable. */
    private static final class Writers {

        private final MessageStore store;
        private final AtomicLong sequence;
        private final Set<Long> durableSends;
        private final Set<Long> durableCommits;
        private volatile boolean running = true;

        Writers(MessageStore store, AtomicLong sequence, Set<Long> durableSends, Set<Long> durableCommits) {
            this.store = store;
            this.sequence = sequence;
            this.durableSends = durableSends;
            this.durableCommits = durableCommits;
        }

        void stop() {
            running = false;
        }

        void persistentSends() {
            while (running) {
                long seq = sequence.incrementAndGet();
                try {
                    store.append(TestRecords.record("q", (int) (seq % 2), seq, 100), true).join();
                    durableSends.add(seq);
                } catch (RuntimeException closed) {
                    return;
                }
            }
        }

        void nonPersistentSends() {
            while (running) {
                long seq = sequence.incrementAndGet();
                try {
                    store.append(TestRecords.nonPersistent("q", (int) (seq % 2), seq, 100), false).join();
                } catch (RuntimeException closed) {
                    return;
                }
            }
        }

        void transactions() {
            while (running) {
                long seq = sequence.incrementAndGet();
                try {
                    MessageRecord half = new MessageRecord(RecordFlags.of(RecordType.PREPARED), "q", 0, seq, 0, 0, 0,
                            new byte[0], TestRecords.body(seq, 100));
                    AppendResult written = store.append(half, false).join();
                    store.flushedTo(written.endOffset()).join(); // as a half sent earlier is durable by the commit
                    byte[] named = (written.physicalOffset() + "," + written.size() + "," + seq)
                            .getBytes(StandardCharsets.UTF_8);
                    store.append(List.of(new QueueSlot("tx", 0)), offsets -> new MessageRecord(
                            RecordFlags.of(RecordType.COMMIT), "tx", 0, offsets[0], 0, 0, 0, named, new byte[0]), true)
                            .join();
                    durableCommits.add(seq);
                } catch (RuntimeException closed) {
                    return;
                }
            }
        }
    }
}
