package io.ramjet.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large messages between real processes: clients in JVMs of their own with a 64 MiB heap send
 * and receive bodies streamed in chunks, the broker in its own JVM is killed ({@code kill -9}) at
 * random points of a large send and of a large receive, and a sending client is killed too. Every message whose send returned is
 * received whole; no send that failed as certainly not stored leaves a message (one whose outcome
 * the failure says is unknown may: the broker was killed after storing it, before answering), and
 * no failed send's chunks leave a CommitLog segment behind once retention has run.
 */
class LargeMessageTest {

    private static final String CLIENT_HEAP = LargeChildren.CLIENT_HEAP;
    private static final long MIB = 1 << 20;
    private static final Duration CLIENT_TIMEOUT = LargeChildren.CLIENT_TIMEOUT;
    /**
     * The body of the sends and receives killed midway: 48 chunks, spanning three 16 MiB segments
     * in the send test (so reclaiming an orphan's chunks means deleting whole segments), and
     * long enough to transfer that a random point in the first few hundred milliseconds mostly
     * falls inside it.
     */
    private static final long KILLED_LENGTH = 48 * MIB;
    /**
     * How long a sender whose broker was killed waits for a master before its send fails: the
     * broker is restarted after the sender exits, so waiting longer shows nothing more.
     */
    private static final long SENDER_FAILOVER_MILLIS = 2_000;

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void aGibibyteTravelsThroughClientsWithA64MibHeap() throws Exception {
        BrokerProcess broker = brokers.start("large-gib", Brokers.properties("segmentSize", "256m", "retentionIntervalMs", "1000"));
        long length = 1L << 30;
        Figures send = run("large-gib-send", "send", broker, "rel.large.gib", Long.toString(length));
        Figures receive = run("large-gib-receive", "receive", broker, "rel.large.gib", "30000");
        assertEquals("received " + length + " -1 false", receive.result(), "the body, byte for byte");
        System.out.printf("LargeMessageTest 1 GiB: send %d MiB/s (client peak heap %d MiB), receive %d MiB/s"
                        + " (client peak heap %d MiB)%n", length / MIB * 1000 / Math.max(1, send.millis()),
                send.peakHeap() / MIB, length / MIB * 1000 / Math.max(1, receive.millis()), receive.peakHeap() / MIB);
        assertTrue(send.peakHeap() < 64 * MIB && receive.peakHeap() < 64 * MIB, "peak heaps within 64 MiB");
        // consumed: retention deletes every segment but the active one (the 1 GiB spans five)
        await("segments left after the message was consumed").atMost(Duration.ofSeconds(30))
                .until(() -> segments(broker), left -> left <= 2);
    }

    @Test
    void aBrokerOrClientKilledDuringLargeSendsLeavesOnlyWholeMessagesAndTheirChunksAreReclaimed() throws Exception {
        BrokerProcess broker = brokers.start("large-kill-send", Brokers.properties("segmentSize", "16m", "retentionIntervalMs", "1000"));
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long length = KILLED_LENGTH;
        // the broker comes back only once the sender has exited: the sender waits briefly for a master
        String url = broker.url() + "?failoverTimeout=" + SENDER_FAILOVER_MILLIS;
        int sent = 0;
        int unknown = 0; // a client killed just after its SEND was stored, or a send failed with its outcome unknown
        for (int round = 0; round < 3; round++) {
            try (ClientProcess child = ClientProcess.start("large-kill-send-" + round, CLIENT_HEAP,
                    LargeMessageChild.class, "send", url, "rel.large.killsend", Long.toString(length))) {
                assertTrue(child.awaitLine("sending", CLIENT_TIMEOUT).isPresent(), "child started: " + child.lines());
                TimeUnit.MILLISECONDS.sleep(random.nextInt(600)); // a random point of the send
                if (round == 1) {
                    child.close(); // the client killed instead: its connection's upload is abandoned
                } else {
                    broker.kill();
                }
                child.exit(CLIENT_TIMEOUT);
                if (child.line("sent ").isPresent()) {
                    sent++;
                } else if (round == 1 || child.line("failed JMSException").isPresent()) {
                    unknown++; // a plain JMSException: the broker may have stored the send before it was killed
                }
            }
            if (!broker.isAlive()) {
                broker.restart();
            }
        }
        int received = 0;
        for (Optional<String> got = receiveOne(broker, "rel.large.killsend", "large-kill-send-receive");
             got.isPresent(); got = receiveOne(broker, "rel.large.killsend", "large-kill-send-receive")) {
            assertTrue(got.get().startsWith("received " + length + " -1 "), "a whole message: " + got.get());
            received++;
        }
        System.out.printf("LargeMessageTest kill during send (broker, client, broker; seed %d): %d of 3 sends"
                + " returned%n", seed, sent);
        assertTrue(received >= sent && received <= sent + unknown, "messages received: " + received
                + ", those whose send returned: " + sent + ", no other (seed " + seed + ")");
        // nothing is left to deliver: retention deletes the orphaned chunks' segments
        await("segments left (seed " + seed + ")").atMost(Duration.ofSeconds(30))
                .until(() -> segments(broker), left -> left <= 2);
    }

    @Test
    void aBrokerKilledDuringALargeReceiveDeliversTheWholeMessageAgain() throws Exception {
        BrokerProcess broker = brokers.start("large-kill-receive", Brokers.properties("retentionIntervalMs", "1000"));
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long length = KILLED_LENGTH;
        run("large-kill-receive-send", "send", broker, "rel.large.killreceive", Long.toString(length));
        boolean acknowledged = false;
        int kills = 0;
        for (int round = 0; round < 2 && !acknowledged; round++) {
            try (ClientProcess child = ClientProcess.start("large-kill-receive-" + round, CLIENT_HEAP,
                    LargeMessageChild.class, "receive", broker.url(), "rel.large.killreceive", "30000")) {
                assertTrue(child.awaitLine("reading", CLIENT_TIMEOUT).isPresent(), "received: " + child.lines());
                killAfter(broker, random.nextInt(400));
                kills++;
                child.exit(CLIENT_TIMEOUT);
                acknowledged = child.line("received ").isPresent();
            }
            broker.restart();
        }
        Optional<String> again = receiveOne(broker, "rel.large.killreceive", "large-kill-receive-again");
        System.out.printf("LargeMessageTest kill during receive (seed %d): %d kills, acknowledged before one: %s%n",
                seed, kills, acknowledged);
        if (acknowledged) {
            assertTrue(again.isEmpty(), "an acknowledged message came again: " + again);
        } else {
            assertEquals(Optional.of("received " + length + " -1 true"), again, "whole and redelivered (seed "
                    + seed + ")");
        }
    }

    /** {@code kill -9} after {@code millis}: a random point of a transfer under way, not a condition awaited. */
    private static void killAfter(BrokerProcess broker, long millis) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(millis);
        broker.kill();
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
            return new Figures(LargeChildren.withoutMillis(result), Long.parseLong(words[words.length - 1]), peak);
        }
    }

    private static long segments(BrokerProcess broker) {
        return LargeChildren.segments(broker.dataDir());
    }

    private static Optional<String> receiveOne(BrokerProcess broker, String queue, String name) throws Exception {
        return LargeChildren.receiveOne(broker.url(), queue, name);
    }
}
