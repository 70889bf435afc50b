package io.ramjet.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large messages between real processes: clients in JVMs of their own with a 64 MiB heap send
 * and receive bodies streamed in chunks, the broker in its own JVM is killed ({@code kill -9}) at
 * random points of a large send and of a large receive. Every message whose send returned is
 * received whole; no send that failed leaves a message, and its chunks leave no CommitLog
 * segment behind once retention has run.
 */
class LargeMessageTest {

    private static final String CLIENT_HEAP = "-Xmx64m";
    private static final long MIB = 1 << 20;
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(120);

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void aGibibyteTravelsThroughClientsWithA64MibHeap() throws Exception {
        BrokerProcess broker = brokers.start("large-gib", Brokers.properties("segmentSize", "256m"));
        long length = 1L << 30;
        Figures send = run("large-gib-send", "send", broker, "rel.large.gib", Long.toString(length));
        Figures receive = run("large-gib-receive", "receive", broker, "rel.large.gib", "30000");
        assertEquals("received " + length + " -1 false", receive.result(), "the body, byte for byte");
        System.out.printf("LargeMessageTest 1 GiB: send %d MiB/s (client peak heap %d MiB), receive %d MiB/s"
                        + " (client peak heap %d MiB)%n", length / MIB * 1000 / Math.max(1, send.millis()),
                send.peakHeap() / MIB, length / MIB * 1000 / Math.max(1, receive.millis()), receive.peakHeap() / MIB);
        assertTrue(send.peakHeap() < 64 * MIB && receive.peakHeap() < 64 * MIB, "peak heaps within 64 MiB");
        // consumed: retention deletes every segment but the active one (the 1 GiB spans five)
        assertTrue(Await.until(Duration.ofSeconds(30), () -> segments(broker) <= 2),
                "segments left after the message was consumed: " + segments(broker));
    }

    /** What a child printed: its result line, the time it gave for the step and its peak heap. */
    record Figures(String result, long millis, long peakHeap) {
    }

    private static Figures run(String name, String mode, BrokerProcess broker, String queue, String argument)
            throws Exception {
        try (ClientProcess child = ClientProcess.start(name, CLIENT_HEAP, LargeMessageChild.class, mode, broker.url(),
                queue, argument)) {
            int exit = child.exit(CLIENT_TIMEOUT);
            assertEquals(0, exit, name + " exit; output " + child.lines());
            String step = mode.equals("send") ? "sent " : "received ";
            String result = child.line(step).orElseThrow();
            String[] words = result.split(" ");
            long peak = Long.parseLong(child.line("peakHeap ").orElseThrow().split(" ")[1]);
            String withoutMillis = result.substring(0, result.lastIndexOf(' '));
            return new Figures(withoutMillis, Long.parseLong(words[words.length - 1]), peak);
        }
    }

    private static long segments(BrokerProcess broker) {
        try (Stream<Path> files = Files.list(broker.dataDir().resolve("commitlog"))) {
            return files.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
