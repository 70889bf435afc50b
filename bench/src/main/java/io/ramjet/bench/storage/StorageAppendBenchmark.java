package io.ramjet.bench.storage;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordDescriptor;
import io.ramjet.storage.FlushPolicy;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Append throughput of 1 KiB records into the {@link MessageStore}, next to a plain
 * {@code FileChannel.write} loop on the same disk in the same run.
 *
 * <p>Rows: Ramjet with async flush (1 writer), Ramjet with sync group commit (1, 4, 16 writers,
 * each waiting for its append to be durable), and two baselines: one thread writing 1 KiB and
 * forcing after each write, and one thread writing 1 KiB without forcing. Ratios are against
 * the first baseline for durable rows and the second for the async row.
 *
 * <p>System properties: {@code bench.seconds} per row (default 3), {@code bench.dir} (default
 * the temporary directory), {@code bench.segmentMiB} (default 1024, the store default).
 */
public final class StorageAppendBenchmark {

    private static final int RECORD_SIZE = 1024;
    private static final String DESTINATION = "bench";

    private record Row(String name, int writers, long records, double seconds) {
        double perSecond() {
            return records / seconds;
        }

        double megabytesPerSecond() {
            return perSecond() * RECORD_SIZE / (1024.0 * 1024.0);
        }
    }

    private interface Append {
        void once() throws Exception;
    }

    private final double seconds;
    private final Path root;
    private final int segmentSize;

    private StorageAppendBenchmark(double seconds, Path root, int segmentSize) {
        this.seconds = seconds;
        this.root = root;
        this.segmentSize = segmentSize;
    }

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(System.getProperty("bench.seconds", "3"));
        Path base = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
        int segmentMiB = Integer.parseInt(System.getProperty("bench.segmentMiB", "1024"));
        Path root = Files.createTempDirectory(base, "ramjet-storage-bench");
        try {
            new StorageAppendBenchmark(seconds, root, segmentMiB << 20).run(System.out);
        } finally {
            delete(root);
        }
    }

    private void run(PrintStream out) throws Exception {
        out.printf("storage append benchmark: %d-byte records, %.1f s per row, segments of %d MiB, in %s%n",
                RECORD_SIZE, seconds, segmentSize >> 20, root);
        Row forceEach = baseline("FileChannel write+force", true);
        Row writeOnly = baseline("FileChannel write only", false);
        List<Row> rows = new ArrayList<>();
        rows.add(store("Ramjet async flush", FlushPolicy.ASYNC, 1));
        for (int writers : new int[] {1, 4, 16}) {
            rows.add(store("Ramjet sync group commit", FlushPolicy.SYNC_GROUP_COMMIT, writers));
        }
        out.printf("%-26s %7s %12s %9s %14s%n", "row", "writers", "records/s", "MB/s", "ratio");
        print(out, forceEach, null, "");
        print(out, writeOnly, null, "");
        for (Row row : rows) {
            boolean async = row.name().contains("async");
            print(out, row, async ? writeOnly : forceEach, async ? " vs write only" : " vs write+force");
        }
    }

    private static void print(PrintStream out, Row row, Row against, String label) {
        String ratio = against == null ? "" : String.format("%.2fx%s", row.perSecond() / against.perSecond(), label);
        out.printf("%-26s %7d %12.0f %9.1f   %s%n", row.name(), row.writers(), row.perSecond(),
                row.megabytesPerSecond(), ratio);
    }

    private Row baseline(String name, boolean force) throws Exception {
        Path file = root.resolve(force ? "baseline-force" : "baseline-write");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer record = ByteBuffer.allocateDirect(RECORD_SIZE);
            Row row = measure(name, 1, () -> {
                record.clear();
                while (record.hasRemaining()) {
                    channel.write(record);
                }
                if (force) {
                    channel.force(false);
                }
            });
            channel.force(false);
            return row;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private Row store(String name, FlushPolicy policy, int writers) throws Exception {
        Path directory = root.resolve("store-" + policy + "-" + writers);
        StoreConfig config = StoreConfig.defaults(directory).withSegmentSize(segmentSize).withFlushPolicy(policy);
        boolean wait = policy == FlushPolicy.SYNC_GROUP_COMMIT;
        MessageRecord[] records = {record(0), record(1), record(2), record(3)};
        try (MessageStore store = MessageStore.open(config)) {
            return measure(name, writers, () ->
                    store.append(records[ThreadLocalRandom.current().nextInt(records.length)], wait).join());
        } finally {
            delete(directory);
        }
    }

    private static MessageRecord record(int queueId) {
        MessageRecord empty = MessageRecord.message(DESTINATION, queueId, 0, new byte[0], new byte[0]);
        int body = RECORD_SIZE - MessageRecordDescriptor.recordLength(empty);
        return MessageRecord.message(DESTINATION, queueId, 0, new byte[0], new byte[body]);
    }

    /** Runs {@code append} in {@code writers} threads for the row's duration; counts appends. */
    private Row measure(String name, int writers, Append append) throws Exception {
        LongAdder count = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    while (!stop.get()) {
                        append.once();
                        count.increment();
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "bench-writer-" + w);
            t.start();
            threads.add(t);
        }
        long begin = System.nanoTime();
        start.countDown();
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - begin) / 1e9;
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        return new Row(name, writers, count.sum(), elapsed);
    }

    private static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
