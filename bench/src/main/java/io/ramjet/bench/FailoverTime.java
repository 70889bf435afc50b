package io.ramjet.bench;

import io.ramjet.bench.peer.ReplicatedPeer;
import io.ramjet.bench.workload.Workloads;
import io.ramjet.controller.ControllerConfig;
import io.ramjet.server.broker.replication.ReplicationConfig;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failover time as a JMS user sees it: one producer sends persistent messages, each
 * synchronously, to a replicated peer ({@link ReplicatedPeer}); after {@value #SENDS_BEFORE_KILL}
 * sends another thread kills the primary's JVM ({@code kill -9}) while the producer goes on, and
 * the figure is the time from the kill to the end of the first successful send that began after
 * the JVM had exited (so no answer of the old primary counts). A send that fails is tried again
 * {@value #RETRY_PAUSE_MS} ms later, as a user's loop would, on a new connection if the old one
 * was closed. Each repeat starts a fresh peer; the median and the spread of the repeats are printed.
 *
 * <p>Peers: {@code artemis-replicated} (a live/backup pair, replication HA policy, its client with
 * {@code ha=true&reconnectAttempts=-1}) and {@code ramjet-ha} (three NameServers with controllers,
 * three brokers in controller mode, SYNC with {@code minInSyncReplicas=2}: a group that goes on
 * taking writes without one broker), every other setting at its default.
 *
 * <p>Usage: {@code FailoverTime [peer (artemis-replicated) [repeats (3) [controller brokerTimeoutMillis
 * (the controller's default, also given to the brokers as controllerTimeoutMs)]]]}.
 */
public final class FailoverTime {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverTime.class);
    private static final int SENDS_BEFORE_KILL = 200;
    private static final String HEAP = "1g";
    /** Ramjet's CommitLog segment: each is zero-filled when created, and a fresh group per repeat needs one. */
    private static final int SEGMENT_MIB = 64;
    private static final long RETRY_PAUSE_MS = 5;
    /** A repeat whose producer has not sent again this long after the kill counts as no failover. */
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    /** One repeat: the time from the kill to the next successful send, and the sends that failed meanwhile. */
    record Outcome(long millis, int failedSends, int newConnections) {
    }

    private FailoverTime() {
    }

    public static void main(String[] args) throws Exception {
        String peer = args.length > 0 ? args[0] : "artemis-replicated";
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Duration brokerTimeout = Duration.ofMillis(args.length > 2 ? Long.parseLong(args[2])
                : ControllerConfig.DEFAULT_BROKER_TIMEOUT.toMillis());
        PrintStream out = System.out;
        List<Long> times = new ArrayList<>();
        for (int i = 1; i <= repeats; i++) {
            try (ReplicatedPeer replicated = start(peer, brokerTimeout)) {
                Outcome o = measure(replicated.connectionFactory(), replicated);
                out.printf(Locale.ROOT, "%s repeat %d: next successful send %d ms after the kill (%d sends failed, "
                        + "%d new connections)%n", peer, i, o.millis(), o.failedSends(), o.newConnections());
                times.add(o.millis());
            } catch (TimeoutException e) {
                out.printf(Locale.ROOT, "%s repeat %d: %s%n", peer, i, e.getMessage());
            }
        }
        if (times.isEmpty()) {
            out.printf(Locale.ROOT, "%s: no failover in %d repeats%n", peer, repeats);
            System.exit(1);
        }
        times.sort(null);
        long median = times.get(times.size() / 2);
        out.printf(Locale.ROOT, "%s failover: median %d ms, lowest %d ms, highest %d ms (~%d%%) over %d repeats%n",
                peer, median, times.get(0), times.get(times.size() - 1),
                median == 0 ? 0 : 100 * (times.get(times.size() - 1) - times.get(0)) / median, times.size());
        System.exit(0);
    }

    private static ReplicatedPeer start(String peer, Duration brokerTimeout) throws Exception {
        return switch (peer) {
            case "artemis-replicated" -> ReplicatedPeer.artemis(HEAP, (long) Workloads.ASYNC_WINDOW * 1024, 0);
            case "ramjet-ha" -> ReplicatedPeer.ramjetControlled(peer, HEAP, SEGMENT_MIB, ReplicationConfig.Mode.SYNC,
                    2, brokerTimeout);
            default -> throw new IllegalArgumentException("no failover for peer " + peer
                    + "; the peers are artemis-replicated and ramjet-ha");
        };
    }

    static Outcome measure(ConnectionFactory factory, ReplicatedPeer peer) throws Exception {
        AtomicLong killedAt = new AtomicLong();
        AtomicLong exitedAt = new AtomicLong(Long.MAX_VALUE);
        CountDownLatch sent = new CountDownLatch(SENDS_BEFORE_KILL);
        Thread killer = new Thread(() -> {
            try {
                sent.await();
                killedAt.set(System.nanoTime());
                peer.killPrimary();
                exitedAt.set(System.nanoTime());
                LOG.info("primary killed; its JVM exited {} ms later", (exitedAt.get() - killedAt.get()) / 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "failover-killer");
        killer.start();
        Producer producer = new Producer(factory);
        int failed = 0;
        int connections = 0;
        try {
            while (true) {
                long began = System.nanoTime();
                try {
                    if (producer == null) {
                        producer = new Producer(factory);
                        connections++;
                    }
                    producer.send();
                    if (began - exitedAt.get() > 0) {
                        return new Outcome((System.nanoTime() - killedAt.get()) / 1_000_000, failed, connections);
                    }
                    sent.countDown();
                } catch (JMSException e) {
                    if (killedAt.get() == 0) {
                        throw e;
                    }
                    failed++;
                    LOG.info("send failed after the kill: {}", e.toString());
                    if (e instanceof IllegalStateException && producer != null) {
                        producer.close();
                        producer = null;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(RETRY_PAUSE_MS));
                }
                if (killedAt.get() != 0 && System.nanoTime() - killedAt.get() > PATIENCE.toNanos()) {
                    throw new TimeoutException("no successful send within " + PATIENCE + " of the kill");
                }
            }
        } finally {
            killer.interrupt();
            killer.join();
            if (producer != null) {
                producer.close();
            }
        }
    }

    /** A connection, session and producer of persistent 1 KiB messages to one queue. */
    private static final class Producer implements AutoCloseable {

        private final Connection connection;
        private final Session session;
        private final MessageProducer producer;
        private final byte[] body = new byte[1024];

        Producer(ConnectionFactory factory) throws JMSException {
            connection = factory.createConnection();
            session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            producer = session.createProducer(session.createQueue("failover"));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        }

        void send() throws JMSException {
            var m = session.createBytesMessage();
            m.writeBytes(body);
            producer.send(m);
        }

        @Override
        public void close() {
            try {
                connection.close();
            } catch (JMSException e) {
                LOG.debug("closing the producer's connection failed", e);
            }
        }
    }
}
