package io.ramjet.reliability;

import static io.ramjet.reliability.LargeChildren.CLIENT_HEAP;
import static io.ramjet.reliability.LargeChildren.CLIENT_TIMEOUT;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * A large message on a replicated group (SYNC, two in sync at least) across a master killed with
 * {@code kill -9}: one 64 MiB message is being received (streamed, by a client JVM with a 64 MiB
 * heap) and another being sent (written whole with {@code writeBytes}, which the client may send
 * again to the new master) when the master dies at a random point. From the new master
 * every message whose send returned is received whole (every byte compared with what was sent)
 * and once: the one whose receive the kill cut short comes again flagged JMSRedelivered, one
 * acknowledged before the kill never comes again; a send the kill failed leaves a whole message or
 * none. Once everything is consumed (the killed broker back as a slave), the new master's retention
 * deletes the segments of every chunk, those of an upload the kill abandoned included.
 */
class LargeMessageFailoverTest {

    private static final String TEST = "LargeMessageFailoverTest";
    private static final long LENGTH = 64L << 20;
    private static final Duration ELECTION_BOUND = Duration.ofSeconds(30);
    private static final String RECEIVING = "rel.largeha.receiving";
    private static final String SENDING = "rel.largeha.sending";
    /** The writer holds the body, and the client its copy in chunks. */
    private static final String WRITER_HEAP = "-Xmx384m";

    @RegisterExtension
    static final HaCluster CLUSTER = new HaCluster("largeha", Duration.ofMillis(2_500), Brokers.properties("retentionIntervalMs", "1000"),
            "requestTimeout=30000");

    @Test
    void aLargeMessageCrossesAMasterKillWholeAndOnce() throws Exception {
        long seed = Chaos.seed();
        Random random = new Random(seed);
        String url = CLUSTER.url();
        try (ClientProcess first = ClientProcess.start("largeha-first", CLIENT_HEAP, LargeMessageChild.class, "send",
                url, RECEIVING, Long.toString(LENGTH))) {
            assertEquals(0, first.exit(CLIENT_TIMEOUT), "the first send; output " + first.lines());
        }
        HaCluster.Failover failover;
        Optional<String> receivedBeforeKill;
        boolean sendReturned;
        try (ClientProcess receiver = ClientProcess.start("largeha-receive", CLIENT_HEAP, LargeMessageChild.class,
                "receive", url, RECEIVING, "30000");
             ClientProcess sender = ClientProcess.start("largeha-send", WRITER_HEAP, LargeMessageChild.class,
                     "write", url, SENDING, Long.toString(LENGTH))) {
            assertTrue(receiver.awaitLine("reading", CLIENT_TIMEOUT).isPresent(), "receiving: " + receiver.lines());
            assertTrue(sender.awaitLine("sending", CLIENT_TIMEOUT).isPresent(), "sending: " + sender.lines());
            TimeUnit.MILLISECONDS.sleep(random.nextInt(1_000)); // a random point of both transfers, not a condition
            failover = CLUSTER.killMaster(ELECTION_BOUND);
            receiver.exit(CLIENT_TIMEOUT);
            sender.exit(CLIENT_TIMEOUT);
            receivedBeforeKill = receiver.line("received ").map(LargeChildren::withoutMillis);
            sendReturned = sender.line("sent ").isPresent();
        }
        // back in sync before retention runs: a broker behind the master's first retained segment
        // cannot rejoin with its data directory
        CLUSTER.rejoin(failover.killedId());
        List<String> again = drain(url, RECEIVING);
        List<String> sent = drain(url, SENDING);
        GroupBroker master = CLUSTER.broker(failover.newMasterId());
        boolean reclaimed = Await.until(Duration.ofSeconds(30), () -> LargeChildren.segments(master.dataDir()) <= 2);
        String context = "failover=" + failover + " acknowledgedBeforeKill=" + receivedBeforeKill
                + " sendReturned=" + sendReturned + " seed=" + seed;
        System.out.println("RELIABILITY " + TEST + ": " + context + " receivedAgain=" + again + " sentReceived=" + sent);
        String whole = "received " + LENGTH + " -1 ";
        List<Executable> checks = new ArrayList<>();
        if (receivedBeforeKill.isPresent()) {
            checks.add(() -> assertTrue(receivedBeforeKill.get().startsWith(whole), "received before the kill, "
                    + "whole: " + context));
            checks.add(() -> assertEquals(List.of(), again, "an acknowledged message came again: " + context));
        } else {
            checks.add(() -> assertEquals(List.of(whole + "true"), again,
                    "the message cut short by the kill, once more, whole and flagged redelivered: " + context));
        }
        if (sendReturned) {
            checks.add(() -> assertEquals(List.of(whole + "false"), sent, "the returned send, once and whole: "
                    + context));
        } else {
            checks.add(() -> assertTrue(sent.isEmpty() || sent.equals(List.of(whole + "false")),
                    "a failed send leaves one whole message or none: " + sent + " " + context));
        }
        checks.add(() -> assertTrue(reclaimed, "segments left on the new master once all was consumed: "
                + LargeChildren.segments(master.dataDir()) + " " + context));
        assertAll(checks);
    }

    /** Every message left on {@code queue}, one receiving JVM each. */
    private static List<String> drain(String url, String queue) throws Exception {
        List<String> results = new ArrayList<>();
        for (Optional<String> got = LargeChildren.receiveOne(url, queue, "largeha-drain");
             got.isPresent() && results.size() < 3; got = LargeChildren.receiveOne(url, queue, "largeha-drain")) {
            results.add(got.get());
        }
        return results;
    }
}
