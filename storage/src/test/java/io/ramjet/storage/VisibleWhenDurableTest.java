package io.ramjet.storage;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PERSISTENT message reaches its ConsumeQueue (where consumers find it) only once the CommitLog
 * is forced past it, whoever forces and whether or not its append waits; a NON_PERSISTENT one
 * does not wait for a force. Forces are held back by a hook to show it.
 */
class VisibleWhenDurableTest {

    private static final Duration HELD = Duration.ofMillis(300);

    @TempDir
    Path dir;

    /** Holds every force until a permit is given; counts the forces that started. */
    private final Semaphore forcesAllowed = new Semaphore(0);
    private final CountDownLatch forceStarted = new CountDownLatch(1);

    private MessageStore store;

    private MessageStore open(FlushPolicy policy) {
        return holdingForces(MessageStore.open(TestRecords.config(dir).withFlushPolicy(policy)));
    }

    private MessageStore holdingForces(MessageStore opened) {
        store = opened;
        store.beforeForce(() -> {
            forceStarted.countDown();
            forcesAllowed.acquireUninterruptibly();
        });
        return store;
    }

    /** Lets every force through (a failed test leaves them held), so the store can close. */
    @AfterEach
    void close() {
        forcesAllowed.release(Integer.MAX_VALUE / 2);
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aPersistentMessageIsNotInItsQueueBeforeItsForceCompletes() throws Exception {
        open(FlushPolicy.SYNC_GROUP_COMMIT);
        CompletableFuture<AppendResult> durable = store.append(TestRecords.record("q", 0, 1, 100), true);
        assertTrue(forceStarted.await(5, TimeUnit.SECONDS), "a force started");

        await().during(HELD).atMost(HELD.multipliedBy(3)).until(() -> store.maxQueueOffset("q", 0) == 0);
        assertFalse(durable.isDone());

        forcesAllowed.release(Integer.MAX_VALUE / 2);
        durable.get(5, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(5)).until(() -> store.maxQueueOffset("q", 0) == 1);
    }

    @Test
    void aPersistentMessageWhoseSendDoesNotWaitStillWaitsForAForceToBeSeen() throws Exception {
        open(FlushPolicy.ASYNC);
        store.append(TestRecords.record("q", 0, 1, 100), false).join();
        assertTrue(forceStarted.await(5, TimeUnit.SECONDS), "the dispatcher asked for a force");

        await().during(HELD).atMost(HELD.multipliedBy(3)).until(() -> store.maxQueueOffset("q", 0) == 0);

        forcesAllowed.release(Integer.MAX_VALUE / 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> store.maxQueueOffset("q", 0) == 1);
        assertTrue(store.flushedOffset() >= store.maxPhysicalOffset());
    }

    /**
     * A COMMIT's entries (here, as the broker's listener does, entries it reserved) reach their
     * queue only once the COMMIT is forced: so a power loss can never leave them without it.
     */
    @Test
    void aCommitPutsNoEntryInItsQueuesBeforeItsForceCompletes() throws Exception {
        DispatchListener commits = (record, queues) -> {
            if (record.type() == RecordType.COMMIT) {
                queues.put(record.destination(), record.queueId(), record.queueOffset(), record.physicalOffset(),
                        record.totalSize(), 0);
            }
        };
        holdingForces(MessageStore.open(TestRecords.config(dir), commits));
        store.append(List.of(new QueueSlot("q", 0)), offsets -> new MessageRecord(RecordFlags.of(RecordType.COMMIT),
                "q", 0, offsets[0], 0, 0, 0, new byte[0], new byte[0]), false).join();
        assertTrue(forceStarted.await(5, TimeUnit.SECONDS), "the dispatcher asked for a force");

        await().during(HELD).atMost(HELD.multipliedBy(3)).until(() -> store.maxQueueOffset("q", 0) == 0);

        forcesAllowed.release(Integer.MAX_VALUE / 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> store.maxQueueOffset("q", 0) == 1);
    }

    @Test
    void aNonPersistentMessageIsSeenWithoutAForce() throws Exception {
        open(FlushPolicy.SYNC_GROUP_COMMIT);
        store.append(TestRecords.nonPersistent("q", 0, 1, 100), false).join();

        await().atMost(Duration.ofSeconds(5)).until(() -> store.maxQueueOffset("q", 0) == 1);
    }
}
