package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a lane runs its work and who forces for it, as {@link DurabilityPipeline} rules: on the
 * calling event loop (here a one-thread executor standing for one, its queue the "reads at hand")
 * or on the lane's thread. The flush thread's own forces are an hour apart, so every force here
 * is one the rules asked for; a force's time is set through the store's statistics, which is
 * what the rules read.
 */
class AppendLaneTest {

    private static final long SLOW = TimeUnit.MILLISECONDS.toNanos(5);

    @TempDir
    Path dir;

    private final AtomicBoolean mayBlock = new AtomicBoolean();
    private final List<String> forcedOn = Collections.synchronizedList(new ArrayList<>());
    private ExecutorService loop;
    private MessageStore store;
    private AppendLane lane;

    @BeforeEach
    void open() {
        loop = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-loop"));
        store = MessageStore.open(TestRecords.config(dir).toBuilder().flushInterval(Duration.ofHours(1)).build());
        store.beforeForce(() -> forcedOn.add(Thread.currentThread().getName()));
        lane = store.appendLane("test-lane", mayBlock::get);
    }

    @AfterEach
    void close() {
        lane.close();
        store.close();
        loop.shutdownNow();
    }

    /** Runs {@code work} through the lane from the event loop, as a read there would. */
    private void fromTheLoop(Runnable work) throws Exception {
        loop.submit(() -> lane.execute(work, loop::execute)).get(5, TimeUnit.SECONDS);
    }

    /** A persistent append waiting for durability; completes with the name of the thread that completed it. */
    private CompletableFuture<String> sendPersistent(long seq) {
        return store.append(TestRecords.record("q", 0, seq, 100), true).thenApply(r -> Thread.currentThread().getName());
    }

    @Test
    void runsOnTheEventLoopAndForcesThereOnceItsReadsAreProcessed() throws Exception {
        List<CompletableFuture<String>> durable = Collections.synchronizedList(new ArrayList<>());
        List<Boolean> doneBeforeTheBatchEnded = Collections.synchronizedList(new ArrayList<>());
        loop.submit(() -> {
            for (int seq = 1; seq <= 3; seq++) {
                long s = seq;
                lane.execute(() -> {
                    CompletableFuture<String> sent = sendPersistent(s);
                    durable.add(sent);
                    doneBeforeTheBatchEnded.add(sent.isDone());
                }, loop::execute);
            }
        }).get(5, TimeUnit.SECONDS);

        for (CompletableFuture<String> sent : durable) {
            assertEquals("test-loop", sent.get(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of(false, false, false), doneBeforeTheBatchEnded);
        assertEquals(List.of("test-loop"), forcedOn, "one force for the three");
    }

    @Test
    void anEventLoopDoesNotForceOnceAForceTurnedSlow() throws Exception {
        CompletableFuture<CompletableFuture<String>> durable = new CompletableFuture<>();
        fromTheLoop(() -> {
            durable.complete(sendPersistent(1));
            store.flushStatistics().forced(SLOW, 0); // another thread's force, slow, before the batch ends
        });

        assertEquals("test-lane", durable.get().get(5, TimeUnit.SECONDS));
        assertEquals(List.of("test-lane"), forcedOn);
    }

    @Test
    void workThatMayBlockOrFollowsASlowForceRunsOnTheLaneThread() throws Exception {
        List<String> ranOn = Collections.synchronizedList(new ArrayList<>());
        mayBlock.set(true);
        fromTheLoop(() -> ranOn.add(Thread.currentThread().getName()));
        awaitIdle();
        mayBlock.set(false);
        store.flushStatistics().forced(SLOW, 0);
        fromTheLoop(() -> ranOn.add(Thread.currentThread().getName()));
        awaitIdle();
        store.flushStatistics().forced(0, 0);
        fromTheLoop(() -> ranOn.add(Thread.currentThread().getName()));

        assertEquals(List.of("test-lane", "test-lane", "test-loop"), ranOn);
    }

    @Test
    void whileWorkWaitsOnTheLaneThreadLaterWorkFollowsItThereInOrder() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> ranOn = Collections.synchronizedList(new ArrayList<>());
        lane.handOff(() -> {
            await(release);
            ranOn.add("first on " + Thread.currentThread().getName());
        });
        List<CompletableFuture<String>> durable = Collections.synchronizedList(new ArrayList<>());
        for (int seq = 1; seq <= 20; seq++) {
            long s = seq;
            fromTheLoop(() -> {
                ranOn.add(s + " on " + Thread.currentThread().getName());
                durable.add(sendPersistent(s));
            });
        }
        assertEquals(List.of(), ranOn, "none ran on the event loop meanwhile");

        release.countDown();
        awaitIdle();
        List<String> expected = new ArrayList<>(List.of("first on test-lane"));
        for (int seq = 1; seq <= 20; seq++) {
            expected.add(seq + " on test-lane");
        }
        assertEquals(expected, ranOn);
        for (CompletableFuture<String> sent : durable) {
            assertEquals("test-lane", sent.get(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of("test-lane"), forcedOn, "one force once the lane's queue ran empty");
    }

    @Test
    void refusesWorkOnceClosed() {
        lane.close();

        assertThrows(RejectedExecutionException.class, () -> lane.execute(() -> { }, loop::execute));
        assertThrows(RejectedExecutionException.class, () -> lane.handOff(() -> { }));
    }

    @Test
    void anAppendOutsideAnyBatchWakesTheFlushThread() throws Exception {
        sendPersistent(1).get(5, TimeUnit.SECONDS);
        assertFalse(forcedOn.isEmpty());
        assertTrue(forcedOn.stream().allMatch("ramjet-flush"::equals), forcedOn.toString());
    }

    /** Until the lane's thread has run everything handed to it and ended its batch. */
    private void awaitIdle() throws Exception {
        CompletableFuture<Void> behind = new CompletableFuture<>();
        lane.handOff(() -> behind.complete(null));
        behind.get(5, TimeUnit.SECONDS);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !lane.busy());
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
