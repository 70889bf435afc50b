package io.ramjet.server.broker;

import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.remoting.RemotingServer;
import io.ramjet.server.remoting.RemotingServerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The send lane over a real server and client on 127.0.0.1: where requests run, in what order,
 * and when the lane's force runs. The "force" here records its thread instead of touching a disk.
 */
class SendLaneTest {

    private static final short SEND = 951;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Each processed request's number and thread, in processing order. */
    private final List<String> processed = Collections.synchronizedList(new ArrayList<>());
    /** Each force's thread, and the count of requests processed when it ran. */
    private final List<String> forces = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean held = new AtomicBoolean();
    private final AtomicBoolean forcesQuickly = new AtomicBoolean(true);
    private SendThread thread;
    private SendLane lane;
    private RemotingServer server;
    private RemotingClient client;

    @BeforeEach
    void start() throws Exception {
        thread = new SendThread(r -> new Thread(r, "test-send"), () -> { });
        lane = new SendLane(thread, held::get, forcesQuickly::get,
                () -> forces.add(Thread.currentThread().getName() + " after " + processed.size()));
        server = new RemotingServer(RemotingServerConfig.onPort(0));
        server.registerAsyncProcessor(SEND, (connection, request) -> {
            processed.add(request.header(QueryRouteRequest.class).destination() + " on "
                    + Thread.currentThread().getName());
            return CompletableFuture.completedFuture(request.reply(null));
        }, lane);
        server.start();
        client = new RemotingClient(RemotingClientConfig.defaults());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        thread.shutdownNow();
    }

    private void send(String name) throws Exception {
        client.invokeSync(server.address(), Frame.request(SEND, new QueryRouteRequest(name)), TIMEOUT);
    }

    @Test
    void runsOnTheIoThreadAndForcesThereAfterTheRequest() throws Exception {
        send("m1");

        assertEquals(1, processed.size());
        assertTrue(processed.get(0).startsWith("m1 on ramjet-server-io"), processed.get(0));
        String ioThread = processed.get(0).substring("m1 on ".length());
        assertTrue(waitFor(() -> forces.size() == 1), "one force: " + forces);
        assertEquals(ioThread + " after 1", forces.get(0));
    }

    @Test
    void whileARequestWaitsOnTheSendThreadLaterOnesFollowItThereInOrder() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        lane.handOff(null, () -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            processed.add("commit on " + Thread.currentThread().getName());
        });
        List<CompletableFuture<Frame>> answers = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            answers.add(client.invoke(server.address(), Frame.request(SEND, new QueryRouteRequest("m" + i)), TIMEOUT));
        }
        assertTrue(waitFor(() -> thread.getQueue().size() == 20), "all 20 queued behind the held request");
        assertEquals(List.of(), processed, "none ran on an I/O thread meanwhile");

        release.countDown();
        for (CompletableFuture<Frame> answer : answers) {
            answer.get(10, TimeUnit.SECONDS);
        }
        List<String> expected = new ArrayList<>(List.of("commit on test-send"));
        for (int i = 1; i <= 20; i++) {
            expected.add("m" + i + " on test-send");
        }
        assertEquals(expected, processed);
        assertEquals(List.of(), forces, "the send thread forces for its own requests");

        // a handed-off request answers before the lane counts it done: wait until it has
        assertTrue(waitFor(() -> thread.getCompletedTaskCount() == 21), "the send thread finished");
        send("after");
        assertTrue(processed.get(21).startsWith("after on ramjet-server-io"), "inline again once drained: "
                + processed.get(21));
    }

    @Test
    void heldSendsAndSlowForcesStayOffTheIoThread() throws Exception {
        held.set(true);
        send("held");
        held.set(false);
        forcesQuickly.set(false);
        send("slow");
        forcesQuickly.set(true);
        // a handed-off request answers before the lane counts it done: wait until it has
        assertTrue(waitFor(() -> thread.getCompletedTaskCount() == 2), "the send thread finished");
        send("fast");

        assertEquals("held on test-send", processed.get(0));
        assertEquals("slow on test-send", processed.get(1));
        assertTrue(processed.get(2).startsWith("fast on ramjet-server-io"), processed.get(2));
    }

    @Test
    void refusedOnceTheSendThreadIsShutDown() {
        thread.shutdown();

        Exception refused = assertThrows(Exception.class, () -> send("late"));

        assertTrue(String.valueOf(refused.getMessage()).contains("busy"), String.valueOf(refused));
        assertEquals(List.of(), processed);
    }

    private static boolean waitFor(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }
}
