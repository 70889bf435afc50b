package io.ramjet.storage;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records appended in a lane's batch are dispatched by the lane's thread right after its force,
 * or else by the dispatcher's. The batches here run on the lane's own thread, which forces
 * however long the disk takes.
 */
class DispatchHereTest {

    private static final int BODY = 1_000;

    @TempDir
    Path dir;

    private final List<String> threads = new CopyOnWriteArrayList<>();

    private StoreConfig config() {
        return TestRecords.config(dir).withSegmentSize(4 << 20);
    }

    private DispatchListener recordingThreads() {
        return TestRecords.normalMessagesThen((record, queues) -> threads.add(Thread.currentThread().getName()));
    }

    /**
     * Each round starts with the dispatcher thread parked; its idle wake-up (every 50 ms) may
     * still fall between an append and the force once in a while, so 4 of 5 rounds must show it.
     */
    @Test
    void theForcingThreadDispatchesWhatItAppendedBeforeItForces() throws Exception {
        try (MessageStore store = MessageStore.open(config(), recordingThreads());
             AppendLane lane = store.appendLane("test-lane", () -> false)) {
            int here = 0;
            for (int seq = 1; seq <= 5; seq++) {
                awaitDispatcherParked();
                threads.clear();
                long s = seq;
                CompletableFuture<CompletableFuture<Void>> dispatched = new CompletableFuture<>();
                lane.handOff(() -> {
                    store.append(TestRecords.record("q", 0, s, BODY), true);
                    dispatched.complete(store.dispatchedTo(store.maxPhysicalOffset()));
                });
                dispatched.get(5, TimeUnit.SECONDS).get(5, TimeUnit.SECONDS);
                if (threads.equals(List.of("test-lane"))) {
                    here++;
                }
            }
            assertTrue(here >= 4, "dispatched on the forcing lane thread in " + here + " of 5 rounds");
            assertEquals(5, store.maxQueueOffset("q", 0));
        }
    }

    @Test
    void anAppendInsideABatchWaitsForTheBatchEndNotForTheFlushThread() throws Exception {
        StoreConfig slowFlushThread = config().toBuilder().flushInterval(Duration.ofHours(1)).build();
        try (MessageStore store = MessageStore.open(slowFlushThread, recordingThreads());
             AppendLane lane = store.appendLane("test-lane", () -> false)) {
            CompletableFuture<Thread> forcedOn = new CompletableFuture<>();
            CountDownLatch appended = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            lane.handOff(() -> {
                store.append(TestRecords.nonPersistent("q", 0, 1, BODY), true)
                        .thenRun(() -> forcedOn.complete(Thread.currentThread()));
                appended.countDown();
                await(release);
            });
            assertTrue(appended.await(5, TimeUnit.SECONDS));
            assertFalse(forcedOn.isDone(), "durable before its batch ended");
            release.countDown();
            assertEquals("test-lane", forcedOn.get(5, TimeUnit.SECONDS).getName());
        }
    }

    /** Until every dispatcher thread of this JVM (another test's store may still close) waits idle. */
    private static void awaitDispatcherParked() {
        List<Thread> dispatchers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("ramjet-dispatch")).toList();
        assertFalse(dispatchers.isEmpty());
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .until(() -> dispatchers.stream()
                        .noneMatch(t -> t.isAlive() && t.getState() != Thread.State.TIMED_WAITING));
    }

    @Test
    void aPassUnderWayIsNotWaitedForAndPassesTheRecordItself() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (MessageStore store = openWithThePassHeldAtRecord1(release);
             AppendLane lane = store.appendLane("test-lane", () -> false)) {
            CompletableFuture<CompletableFuture<Void>> dispatched = new CompletableFuture<>();
            CompletableFuture<AppendResult> durable = new CompletableFuture<>();
            lane.handOff(() -> {
                store.append(TestRecords.record("q", 0, 2, BODY), true).whenComplete((r, e) -> durable.complete(r));
                dispatched.complete(store.dispatchedTo(store.maxPhysicalOffset()));
            });
            durable.get(5, TimeUnit.SECONDS); // the batch's force, on the lane's thread
            CompletableFuture<Void> afterTheBatch = new CompletableFuture<>();
            lane.handOff(() -> afterTheBatch.complete(null));
            afterTheBatch.get(5, TimeUnit.SECONDS);
            assertFalse(dispatched.get().isDone(), "the lane waited for the dispatcher thread's pass");
            release.countDown();
            dispatched.get().get(5, TimeUnit.SECONDS);
            assertEquals(List.of("ramjet-dispatch", "ramjet-dispatch"), threads);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aBacklogOverTheLimitIsLeftToTheDispatcherThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (MessageStore store = openWithThePassHeldAtRecord1(release);
             AppendLane lane = store.appendLane("test-lane", () -> false)) {
            int backlog = (int) (DurabilityPipeline.PASS_HERE_LIMIT_BYTES / BODY) + 10;
            CountDownLatch appended = new CountDownLatch(1);
            CountDownLatch ended = new CountDownLatch(1);
            lane.handOff(() -> {
                for (int seq = 2; seq <= backlog + 1; seq++) {
                    store.append(TestRecords.nonPersistent("q", 0, seq, BODY), false);
                }
                appended.countDown();
                // the dispatcher thread may be between passes at the batch's end: more than the limit is behind
                await(ended);
            });
            assertTrue(appended.await(5, TimeUnit.SECONDS));
            release.countDown();
            ended.countDown();
            TestRecords.awaitDispatched(store);
            assertEquals(backlog + 1, threads.size());
            assertTrue(threads.stream().allMatch("ramjet-dispatch"::equals), threads.toString());
        } finally {
            release.countDown();
        }
    }

    /**
     * A store whose listener records the threads and holds the pass that reaches record 1 until
     * {@code release}; returned once the dispatcher thread is held there.
     */
    private MessageStore openWithThePassHeldAtRecord1(CountDownLatch release) throws Exception {
        CountDownLatch inFirst = new CountDownLatch(1);
        MessageStore store = MessageStore.open(config(), TestRecords.normalMessagesThen((record, queues) -> {
            threads.add(Thread.currentThread().getName());
            if (TestRecords.seqOf(record) == 1) {
                inFirst.countDown();
                await(release);
            }
        }));
        store.append(TestRecords.record("q", 0, 1, BODY), false).join();
        assertTrue(inFirst.await(5, TimeUnit.SECONDS));
        return store;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
