package io.ramjet.server.remoting;

import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.config.RemotingServerConfig;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request still being processed when the server stops is answered into a closed connection
 * whose I/O threads are gone: the answer is dropped quietly, as the stop of a broker with a
 * client mid-request is clean, and nothing is logged at ERROR (Netty would log "Failed to submit
 * a listener notification task. Event loop shut down?" for a write listened to on a terminated
 * loop). The log of this JVM (slf4j-simple, on standard error) is read while it happens.
 */
class LateAnswerTest {

    private static final short SLOW = 903;

    @Test
    void anAnswerAfterTheServerStoppedIsDroppedWithoutAnError() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CountDownLatch processing = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        RemotingServer server = new RemotingServer(RemotingServerConfig.onPort(0));
        server.registerProcessor(SLOW, (connection, request) -> {
            processing.countDown();
            stopped.await();
            return request.reply(null);
        }, executor);
        server.start();
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            client.invoke(server.address(), Frame.request(SLOW, null));
            assertTrue(processing.await(10, TimeUnit.SECONDS));
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            server.close();
            stopped.countDown();
            executor.shutdown();
            // the answer is written on the processor's thread: it has been tried once that thread ends
            assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS), "the processor answered");
        } finally {
            System.setErr(err);
            executor.shutdownNow();
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        err.print(logged);
        assertFalse(logged.contains("ERROR"), logged);
    }
}
