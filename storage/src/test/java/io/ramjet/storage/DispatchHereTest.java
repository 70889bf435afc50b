package io.ramjet.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Records appended for a force are dispatched by the forcing thread, or else by the dispatcher's. */
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
        try (MessageStore store = MessageStore.open(config(), recordingThreads())) {
            int here = 0;
            for (int seq = 1; seq <= 5; seq++) {
                awaitDispatcherParked();
                threads.clear();
                AppendResult appended = store.appendDispatchedAtForce(TestRecords.record("q", 0, seq, BODY)).join();
                CompletableFuture<AppendResult> durable = store.durableAtForce(appended);
                CompletableFuture<Void> dispatched = store.dispatchedTo(appended.endOffset());
                store.forceWaiting();
                if (dispatched.isDone() && durable.isDone()
                        && threads.equals(List.of(Thread.currentThread().getName()))) {
                    here++;
                }
                dispatched.get(5, TimeUnit.SECONDS);
            }
            assertTrue(here >= 4, "dispatched and forced on the forcing thread in " + here + " of 5 rounds");
            assertEquals(5, store.maxQueueOffset("q", 0));
        }
    }

    /** Until every dispatcher thread of this JVM (another test's store may still close) waits idle. */
    private static void awaitDispatcherParked() throws InterruptedException {
        List<Thread> dispatchers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("ramjet-dispatch")).toList();
        assertFalse(dispatchers.isEmpty());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (dispatchers.stream().anyMatch(t -> t.isAlive() && t.getState() != Thread.State.TIMED_WAITING)
                && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    @Test
    void withoutTheForceTheDispatcherThreadStillPassesTheRecord() throws Exception {
        try (MessageStore store = MessageStore.open(config(), recordingThreads())) {
            AppendResult appended = store.appendDispatchedAtForce(TestRecords.record("q", 0, 1, BODY)).join();
            store.dispatchedTo(appended.endOffset()).get(5, TimeUnit.SECONDS);
            assertEquals(List.of("ramjet-dispatch"), threads);
        }
    }

    @Test
    void aPassUnderWayIsNotWaitedForAndPassesTheRecordItself() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (MessageStore store = openWithThePassHeldAtRecord1(release)) {
            AppendResult second = store.appendDispatchedAtForce(TestRecords.record("q", 0, 2, BODY)).join();
            store.forceWaiting(); // the dispatcher thread holds the pass: returns without dispatching
            CompletableFuture<Void> dispatched = store.dispatchedTo(second.endOffset());
            assertFalse(dispatched.isDone());
            release.countDown();
            dispatched.get(5, TimeUnit.SECONDS);
            assertEquals(List.of("ramjet-dispatch", "ramjet-dispatch"), threads);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aBacklogOverTheLimitIsLeftToTheDispatcherThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (MessageStore store = openWithThePassHeldAtRecord1(release)) {
            int backlog = (int) (Dispatcher.HERE_LIMIT_BYTES / BODY) + 10;
            for (int seq = 2; seq <= backlog + 1; seq++) {
                store.appendDispatchedAtForce(TestRecords.record("q", 0, seq, BODY)).join();
            }
            release.countDown();
            // the dispatcher thread may be between passes now: its next one is behind more than the limit
            store.forceWaiting();
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
