package io.ramjet.server.broker.delivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordDescriptor;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.server.broker.subscription.Delivery;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HeldPullsTest {

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HeldPulls held = new HeldPulls(executor, timer);

    @AfterEach
    void stop() {
        executor.shutdownNow();
        timer.shutdownNow();
    }

    @Test
    void destinationsThatComeAndGoLeaveNothingBehind() throws Exception {
        for (int i = 0; i < 100; i++) {
            String destination = "TMP." + i;
            var answered = held.pull(destination, "subscription", 1, 10, 20, (max, bytes) -> Fetched.nothing());
            held.wake(destination);
            answered.get(5, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .untilAsserted(() -> assertEquals(0, held.destinations(), "no entry left for the 100 destinations"));
        assertEquals(0, held.heldCount());
    }

    @Test
    void aGoneConsumersHeldPullIsAnsweredAtOnceAndTheOthersStayHeld() throws Exception {
        var gone = held.pull("Q.q", "subscription", 1, 10, 60_000, (max, bytes) -> Fetched.nothing());
        var other = held.pull("Q.q", "subscription", 2, 10, 60_000, (max, bytes) -> Fetched.nothing());
        held.consumerGone("Q.q", 1);
        assertEquals(List.of(), gone.get(5, TimeUnit.SECONDS), "answered empty long before its hold ends");
        assertFalse(other.isDone(), "another consumer's pull is still held");
        held.expireAll();
        other.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aPullIsAnsweredOnlyOnceTheMarkCoveringItsMessagesIsDurable() throws Exception {
        CompletableFuture<Void> mark = new CompletableFuture<>();
        FetchedMessage message = message(7);
        var answered = held.pull("Q.q", "subscription", 1, 10, 60_000,
                (max, bytes) -> new Fetched(List.of(message), mark));
        held.wake("Q.q");
        held.consumerGone("Q.q", 1);
        assertFalse(answered.isDone(), "the MARK is not durable yet");
        mark.complete(null);
        assertEquals(List.of(message), answered.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aMarkOnItsWayToTheDiskHoldsUpNoOtherPull() throws Exception {
        CompletableFuture<Void> slowMark = new CompletableFuture<>();
        var waiting = held.pull("Q.q", "subscription", 1, 10, 60_000,
                (max, bytes) -> new Fetched(List.of(message(1)), slowMark));
        FetchedMessage other = message(2);
        var served = held.pull("Q.q", "other subscription", 2, 10, 60_000,
                (max, bytes) -> new Fetched(List.of(other), CompletableFuture.completedFuture(null)));
        held.wake("Q.q");
        assertEquals(List.of(other), served.get(5, TimeUnit.SECONDS));
        assertFalse(waiting.isDone());
        slowMark.complete(null);
        waiting.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aPullWhoseMarkTheStoreRefusedFails() {
        CompletableFuture<Void> mark = new CompletableFuture<>();
        var answered = held.pull("Q.q", "subscription", 1, 10, 0,
                (max, bytes) -> new Fetched(List.of(message(3)), mark));
        mark.completeExceptionally(new IllegalStateException("disk full"));
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> answered.get(5, TimeUnit.SECONDS));
        assertEquals("disk full", failure.getCause().getMessage());
    }

    @Test
    void aConsumersPullsTakeItsMessagesOneAfterTheOtherInTheOrderTheyCame() throws Exception {
        long[] next = {0};
        long[] available = {0};
        HeldPulls.Fetch queue = (max, bytes) -> {
            synchronized (next) {
                List<FetchedMessage> got = new java.util.ArrayList<>();
                while (got.size() < max && next[0] < available[0]) {
                    got.add(message(next[0]++));
                }
                return new Fetched(got, CompletableFuture.completedFuture(null));
            }
        };
        var first = held.pull("Q.q", "subscription", 1, 3, 60_000, queue);
        var second = held.pull("Q.q", "subscription", 1, 3, 60_000, queue);
        synchronized (next) {
            available[0] = 5;
        }
        held.wake("Q.q");
        assertEquals(List.of(0L, 1L, 2L), offsets(first.get(5, TimeUnit.SECONDS)), "the earlier pull fills first");
        assertEquals(List.of(3L, 4L), offsets(second.get(5, TimeUnit.SECONDS)));
    }

    private static List<Long> offsets(List<FetchedMessage> messages) {
        return messages.stream().map(m -> m.delivery().offset()).toList();
    }

    private static FetchedMessage message(long offset) {
        MessageRecord record = MessageRecord.message("Q.q", 0, 0, new byte[0], new byte[] {1, 2, 3});
        ByteBuffer buffer = ByteBuffer.allocate(MessageRecordDescriptor.recordLength(record));
        MessageRecordDescriptor.encode(buffer, 0, record.withQueueOffset(offset), 0, 0);
        return new FetchedMessage(new Delivery(0, offset, 1), MessageRecordView.wrap(buffer));
    }
}
