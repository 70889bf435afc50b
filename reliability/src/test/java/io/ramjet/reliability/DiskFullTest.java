package io.ramjet.reliability;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data directory on a small file system (a tmpfs mounted by the test; where mounting is not
 * allowed, the broker's {@code diskUseLimit} just above the disk's current use): persistent
 * sends go on until they fail, and they must fail with ResourceAllocationException, neither
 * hanging nor returning for a message that is not stored. Everything whose send() returned is
 * then consumed from the full broker, and after a kill -9 and restart nothing is missing; once
 * space returns (a bigger tmpfs, or a higher limit) and after one more kill -9, the rest is
 * drained and sends succeed again.
 *
 * <p>The file system is sized from the store's own defaults (one CommitLog segment plus the free
 * space the store keeps, plus 64 MiB), since the broker properties have no segment size key.
 */
class DiskFullTest {

    private static final String TEST = "DiskFullTest";
    private static final int BODY = 128 << 10;
    private static final int NEW_QUEUE_EVERY = 500;
    private static final Duration FILL_LIMIT = Duration.ofSeconds(90);
    private static final Duration HANG = Duration.ofSeconds(15);

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    /** Small CommitLog segments and reserve, so a small file system fills in seconds. */
    private static final long SEGMENT = 16L << 20;
    private static final long MIN_FREE = 16L << 20;

    private static Path dataDir;
    private static long fileSystemSize;
    private static boolean mounted;

    @BeforeAll
    static void smallFileSystem() throws Exception {
        dataDir = Files.createTempDirectory("ramjet-rel-diskfull-");
        fileSystemSize = 2 * SEGMENT + MIN_FREE + (32L << 20);
        mounted = run("mount", "-t", "tmpfs", "-o", "size=" + fileSystemSize, "tmpfs", dataDir.toString()) == 0;
    }

    @AfterAll
    static void unmount() throws Exception {
        if (mounted) {
            run("umount", dataDir.toString());
        }
        TempDirs.delete(dataDir);
    }

    @Test
    void sendsFailCleanlyWhenTheDiskIsFullAndNothingAcknowledgedIsLost() throws Exception {
        String how = mounted ? "tmpfs of " + (fileSystemSize >> 20) + " MiB" : "diskUseLimit " + limitAboveUse(64L << 20);
        BrokerProcess broker = brokers.create("disk-full", dataDir, mounted ? storage()
                : storage("diskUseLimit", Double.toString(limitAboveUse(64L << 20))));
        broker.start();
        ConnectionFactory factory = Jms.factory(broker);
        Tally tally = new Tally();
        Map<String, Set<String>> sentTo = new ConcurrentHashMap<>();

        Fill fill = new Fill(factory, tally, sentTo);
        long fillStart = System.nanoTime();
        List<Thread> fillers = List.of(new Thread(fill, "fill-0"), new Thread(fill, "fill-1"));
        fillers.forEach(Thread::start);
        for (Thread t : fillers) {
            t.join(FILL_LIMIT.plus(HANG).toMillis());
        }
        fill.stop = true;
        long fillMs = (System.nanoTime() - fillStart) / 1_000_000;
        List<String> probes = probe(factory, tally, sentTo);

        List<String> drainErrors = new ArrayList<>();
        int drainedFull = drainAll(factory, tally, sentTo, drainErrors);
        int lostWhileFull = tally.lost();
        broker.kill();
        broker.restart();
        int drainedAfterRestart = drainAll(factory, tally, sentTo, drainErrors);

        int lostWhileStillFull = tally.lost();

        String freed = freeSpace();
        broker.kill();
        BrokerProcess roomy = mounted ? broker
                : brokers.create("disk-full-roomy", dataDir, storage("diskUseLimit", "0.99"));
        roomy.start();
        int drainedWithRoom = drainAll(Jms.factory(roomy), tally, sentTo, drainErrors);
        Tally resumed = new Tally();
        String resumeError = resume(Jms.factory(roomy), resumed);

        tally.summary(TEST, 2, "filesystem=\"" + how + "\" fillMs=" + fillMs + " firstFailure=\"" + fill.firstFailure
                + "\" failuresNotResourceAllocation=" + fill.otherFailures + " maxSendMs=" + fill.maxSendMs
                + " probes=" + probes + " drainedWhileFull=" + drainedFull + " lostWhileFull=" + lostWhileFull
                + " drainedAfterRestart=" + drainedAfterRestart + " lostAfterRestartStillFull=" + lostWhileStillFull
                + " drainedAfterSpaceReturnedAndRestart=" + drainedWithRoom + " queues=" + sentTo.size() + " freed=\"" + freed
                + "\" resumedSends=" + resumed.sentCount() + " resumedReceived=" + resumed.distinctReceived()
                + (resumeError.isEmpty() ? "" : " resumeError=\"" + resumeError + "\"")
                + " drainErrors=" + drainErrors.size() + (drainErrors.isEmpty() ? "" : " firstDrainError=\""
                + drainErrors.get(0) + "\""));
        assertAll(
                () -> assertTrue(fill.firstFailure != null, "sends never failed within " + FILL_LIMIT),
                () -> assertTrue(fill.firstFailure == null || fill.firstFailure.startsWith("ResourceAllocationException"),
                        "the first failed send: " + fill.firstFailure),
                () -> assertEquals(0, fill.otherFailures.get(), "failed sends that were not ResourceAllocationException"),
                () -> assertTrue(fill.maxSendMs.get() < HANG.toMillis(), "a send took " + fill.maxSendMs + " ms"),
                () -> assertTrue(probes.stream().allMatch(p -> p.equals("ResourceAllocationException")
                        || p.equals("returned")), "sends on a full disk: " + probes),
                () -> assertEquals(0, lostWhileFull, "sent, not consumable from the full broker"),
                () -> assertEquals(0, lostWhileStillFull, "sent, still missing after kill -9 and restart on the full disk"),
                () -> assertEquals(0, tally.lost(), "sent, still missing once space returned (after two kill -9)"),
                () -> assertTrue(resumeError.isEmpty(), "sends did not resume: " + resumeError),
                () -> assertEquals(0, resumed.lost(), "sent after space returned, not received"));
    }

    /** Two application threads sending 128 KiB messages, to more and more queues, until a send fails. */
    private static final class Fill implements Runnable {
        final AtomicInteger otherFailures = new AtomicInteger();
        final AtomicLong maxSendMs = new AtomicLong();
        final AtomicInteger next = new AtomicInteger();
        volatile String firstFailure;
        volatile boolean stop;
        private final ConnectionFactory factory;
        private final Tally tally;
        private final Map<String, Set<String>> sentTo;
        private final long deadline = System.nanoTime() + FILL_LIMIT.toNanos();

        Fill(ConnectionFactory factory, Tally tally, Map<String, Set<String>> sentTo) {
            this.factory = factory;
            this.tally = tally;
            this.sentTo = sentTo;
        }

        @Override
        public void run() {
            try (Connection connection = factory.createConnection()) {
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(null);
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                while (!stop && firstFailure == null && System.nanoTime() < deadline) {
                    int n = next.getAndIncrement();
                    String queue = "rel.disk." + (n % (4 + n / NEW_QUEUE_EVERY));
                    String id = "f-" + n;
                    long start = System.nanoTime();
                    try {
                        producer.send(session.createQueue(queue), body(session, id));
                        sentTo.computeIfAbsent(queue, q -> ConcurrentHashMap.newKeySet()).add(id);
                        tally.sent(id);
                    } catch (JMSException e) {
                        if (firstFailure == null) {
                            firstFailure = e.getClass().getSimpleName() + ": " + e.getMessage() + " (after " + n + ")";
                        }
                        if (!(e instanceof ResourceAllocationException)) {
                            otherFailures.incrementAndGet();
                        }
                        return;
                    } finally {
                        maxSendMs.accumulateAndGet((System.nanoTime() - start) / 1_000_000, Math::max);
                    }
                }
            } catch (JMSException e) {
                firstFailure = firstFailure != null ? firstFailure : "connection: " + e;
            }
        }
    }

    private static BytesMessage body(Session session, String id) throws JMSException {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(new byte[BODY]);
        m.setStringProperty(Jms.ID, id);
        return m;
    }

    /** Sends on the full disk, to a known queue and to new ones: how each ended. */
    private static List<String> probe(ConnectionFactory factory, Tally tally, Map<String, Set<String>> sentTo)
            throws JMSException {
        List<String> outcomes = new ArrayList<>();
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(null);
            for (int i = 0; i < 4; i++) {
                String queue = i % 2 == 0 ? "rel.disk.0" : "rel.disk.probe." + i;
                String id = "probe-" + i;
                try {
                    producer.send(session.createQueue(queue), body(session, id));
                    sentTo.computeIfAbsent(queue, q -> ConcurrentHashMap.newKeySet()).add(id);
                    tally.sent(id);
                    outcomes.add("returned");
                } catch (JMSException e) {
                    outcomes.add(e.getClass().getSimpleName());
                }
            }
        }
        return outcomes;
    }

    /** Drains every queue written to; a consumer that fails is noted in {@code errors} and the next queue tried. */
    private static int drainAll(ConnectionFactory factory, Tally tally, Map<String, Set<String>> sentTo,
                                List<String> errors) {
        int n = 0;
        for (Map.Entry<String, Set<String>> queue : new LinkedHashMap<>(sentTo).entrySet()) {
            try {
                n += Drain.queue(factory, queue.getKey(), tally,
                        () -> queue.getValue().stream().allMatch(tally::hasReceived),
                        Duration.ofSeconds(3), Duration.ofSeconds(30));
            } catch (JMSException | RuntimeException e) {
                errors.add(queue.getKey() + ": " + e);
            }
        }
        return n;
    }

    /** Gives the broker room: a bigger tmpfs, or (fallback) a broker with a higher limit. */
    private static String freeSpace() throws Exception {
        if (!mounted) {
            return "diskUseLimit 0.99";
        }
        long bigger = fileSystemSize + 4 * SEGMENT;
        int code = run("mount", "-o", "remount,size=" + bigger, dataDir.toString());
        return code == 0 ? "tmpfs remounted at " + (bigger >> 20) + " MiB" : "remount failed with " + code;
    }

    /** Retries one send for a while (the broker samples disk use), then sends 20 more that must all return. */
    private static String resume(ConnectionFactory factory, Tally resumed) throws Exception {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue("rel.disk.resumed"));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            String[] last = {""};
            boolean first = Await.until(Duration.ofSeconds(15), () -> {
                try {
                    producer.send(Jms.message(session, "resume-first"));
                    resumed.sent("resume-first");
                    return true;
                } catch (JMSException e) {
                    last[0] = e.toString();
                    return false;
                }
            });
            if (!first) {
                return "no send returned within 15 s after space returned: " + last[0];
            }
            try {
                for (int i = 0; i < 20; i++) {
                    producer.send(Jms.message(session, "resume-" + i));
                    resumed.sent("resume-" + i);
                }
            } catch (JMSException e) {
                return e.toString();
            }
        }
        Drain.queue(factory, "rel.disk.resumed", resumed, Duration.ofSeconds(5), Duration.ofSeconds(20));
        return "";
    }

    /** A disk-use fraction that leaves {@code headroom} bytes above what the disk holds now. */
    private static double limitAboveUse(long headroom) throws IOException {
        FileStore disk = Files.getFileStore(dataDir);
        long total = disk.getTotalSpace();
        long segment = SEGMENT;
        double used = 1.0 - (double) disk.getUsableSpace() / total;
        return Math.min(1.0, used + (double) (segment + headroom) / total);
    }

    /** The broker's storage keys for a small disk, and {@code more} keys. */
    private static Properties storage(String... more) {
        Properties p = Brokers.properties(more);
        p.setProperty("segmentSize", Long.toString(SEGMENT));
        p.setProperty("minFreeSpace", Long.toString(MIN_FREE));
        return p;
    }

    private static int run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }
}
