package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushServiceTest {

    @TempDir
    Path dir;

    @Test
    void syncAppendCompletesOnlyOnceForced() {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < 50; i++) {
                AppendResult r = store.append(TestRecords.record("q", 0, i, 100), true).join();
                assertTrue(store.flushedOffset() >= r.endOffset());
            }
        }
    }

    @Test
    void concurrentSyncAppendsShareForces() throws Exception {
        int writers = 8;
        int perWriter = 200;
        try (MessageStore store = MessageStore.open(TestRecords.config(dir).withSegmentSize(1 << 20))) {
            long forcesBefore = store.forceCount();
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<AppendResult>>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    start.await();
                    List<AppendResult> results = new ArrayList<>();
                    for (int i = 0; i < perWriter; i++) {
                        AppendResult r = store.append(TestRecords.record("q", writer, i, 1_000), true).join();
                        assertTrue(store.flushedOffset() >= r.endOffset());
                        results.add(r);
                    }
                    return results;
                }));
            }
            start.countDown();
            for (Future<List<AppendResult>> f : futures) {
                assertEquals(perWriter, f.get().size());
            }
            pool.shutdown();
            long forces = store.forceCount() - forcesBefore;
            assertTrue(forces < writers * perWriter, forces + " forces for " + writers * perWriter + " appends");
        }
    }

    @Test
    void aListenerIsToldOfEachForceWithTheAppendsItCompleted() {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            List<Integer> waiters = Collections.synchronizedList(new ArrayList<>());
            List<Long> nanos = Collections.synchronizedList(new ArrayList<>());
            store.flushStatistics().listen((n, w) -> {
                nanos.add(n);
                waiters.add(w);
            });
            for (int i = 0; i < 20; i++) {
                store.append(TestRecords.record("q", 0, i, 100), true).join();
            }
            FlushStatistics statistics = store.flushStatistics();
            int told = waiters.stream().mapToInt(Integer::intValue).sum();
            // at most every durable append once (one whose bytes an earlier force wrote is completed uncounted)
            assertTrue(told > 0 && told <= 20, told + " appends");
            assertEquals(statistics.waitersCompleted(), told);
            assertEquals(statistics.forces(), waiters.size());
            assertEquals(statistics.forceNanos(), nanos.stream().mapToLong(Long::longValue).sum());
        }
    }

    @Test
    void flushedToCompletesOnceAnAppendThatDidNotWaitIsForced() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir).withFlushPolicy(FlushPolicy.ASYNC))) {
            AppendResult r = store.append(TestRecords.record("q", 0, 1, 100), false).join();
            store.flushedTo(r.endOffset()).get(10, TimeUnit.SECONDS);
            assertTrue(store.flushedOffset() >= r.endOffset());
        }
    }

    @Test
    void appendNotAskingToWaitCompletesAtOnce() {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            CompletableFuture<AppendResult> f = store.append(TestRecords.record("q", 0, 1, 100), false);
            assertTrue(f.isDone());
        }
    }

    @Test
    void asyncPolicyNeverMakesAnAppendWaitAndCloseFlushesEverything() {
        MessageStore store = MessageStore.open(TestRecords.config(dir).withFlushPolicy(FlushPolicy.ASYNC));
        AppendResult last = null;
        for (int i = 0; i < 100; i++) {
            CompletableFuture<AppendResult> f = store.append(TestRecords.record("q", 0, i, 100), true);
            assertTrue(f.isDone());
            last = f.join();
        }
        store.close();
        assertEquals(last.endOffset(), store.flushedOffset());
    }

    @Test
    void aLaneForcesOnItsThreadWhatItsBatchAppended() throws Exception {
        // the flush thread's own forces an hour apart, and a NON_PERSISTENT record's dispatch asks
        // for none: only the batch's end can complete the wait
        StoreConfig config = TestRecords.config(dir).toBuilder().flushInterval(Duration.ofHours(1)).build();
        try (MessageStore store = MessageStore.open(config);
             AppendLane lane = store.appendLane("test-lane", () -> false)) {
            CompletableFuture<Thread> completedOn = new CompletableFuture<>();
            lane.handOff(() -> store.append(TestRecords.nonPersistent("q", 0, 1, 100), true)
                    .thenRun(() -> completedOn.complete(Thread.currentThread())));
            assertEquals("test-lane", completedOn.get(5, TimeUnit.SECONDS).getName());
        }
    }

    @Test
    void aLaneForcesNothingWhenNothingWaits() throws Exception {
        StoreConfig config = TestRecords.config(dir).toBuilder().flushInterval(Duration.ofHours(1)).build();
        try (MessageStore store = MessageStore.open(config);
             AppendLane lane = store.appendLane("test-lane", () -> false)) {
            long forces = store.forceCount();
            CompletableFuture<AppendResult> appended = new CompletableFuture<>();
            lane.handOff(() -> appended.complete(store.append(TestRecords.nonPersistent("q", 0, 1, 100), false).join()));
            appended.get(5, TimeUnit.SECONDS);
            store.dispatchedTo(appended.join().endOffset()).get(5, TimeUnit.SECONDS);
            assertEquals(forces, store.forceCount());
            assertTrue(store.flushedOffset() < appended.join().endOffset());
        }
    }
}
