package io.ramjet.storage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child process of {@link CrashTest}: appends with sync flush from several threads until
 * killed, printing {@code ack <seq> <offset>} once each append is durable.
 */
public final class CrashWriter {

    static final int WRITERS = 4;
    static final String DESTINATION = "crash";

    private CrashWriter() {
    }

    static StoreConfig config(Path directory) {
        return TestRecords.config(directory)
                .withSegmentSize(64 * 1024)
                .withConsumeQueueEntriesPerFile(256)
                .withCheckpointInterval(Duration.ofMillis(100));
    }

    public static void main(String[] args) {
        MessageStore store = MessageStore.open(config(Path.of(args[0])));
        AtomicLong seq = new AtomicLong(Long.parseLong(args[1]));
        for (int w = 0; w < WRITERS; w++) {
            int queueId = w;
            Thread writer = new Thread(() -> {
                Random random = new Random(queueId);
                while (true) {
                    long s = seq.getAndIncrement();
                    AppendResult r = store.append(
                            TestRecords.record(DESTINATION, queueId, s, 50 + random.nextInt(3_000)), true).join();
                    synchronized (System.out) {
                        System.out.println("ack " + s + " " + r.physicalOffset());
                        System.out.flush();
                    }
                }
            });
            writer.start();
        }
    }
}
