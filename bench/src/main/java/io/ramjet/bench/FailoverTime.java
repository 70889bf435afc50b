package io.ramjet.bench;

import io.ramjet.bench.peer.ReplicatedPeer;
import io.ramjet.bench.workload.Failover;
import io.ramjet.bench.workload.Failover.Outcome;
import io.ramjet.bench.workload.Workloads;
import io.ramjet.controller.ControllerConfig;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failover time as a JMS user sees it: one producer sends persistent 1 KiB messages, each
 * synchronously, to a replicated peer ({@link ReplicatedPeer}) from the peer's client JVM
 * ({@link Failover}, on that product's client library and Netty, as every workload's client
 * runs); after {@value #SENDS_BEFORE_KILL} sends this JVM kills the primary's JVM
 * ({@code kill -9}) while the producer goes on, and the figure is the time from the kill to the
 * end of the first successful send that began after the JVM had exited (so no answer of the old
 * primary counts). The client JVM keeps the timers: the kill's moment is noted there just before
 * the kill, the exit's just after this JVM has seen it, each one call on the client's stdin (so
 * the figure may be longer than the failover by that call's time, well under a millisecond,
 * never shorter). A send that fails is tried again {@link Failover#RETRY_PAUSE} later, as a
 * user's loop would, on a new connection if the old one was closed. Each repeat starts a fresh
 * peer; the median and the spread of the repeats are printed.
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
    /** A repeat whose producer has not sent again this long after the kill counts as no failover. */
    private static final Duration PATIENCE = Duration.ofMinutes(2);

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
                Outcome o = measure(replicated);
                out.printf(Locale.ROOT, "%s repeat %d: next successful send %d ms after the kill (%d sends failed, "
                        + "%d new connections)%n", peer, i, o.millis(), o.failedSends(), o.newConnections());
                times.add(o.millis());
            } catch (TimeoutException | IOException e) {
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

    /** One repeat on {@code peer}: its client JVM started, the producer run, the primary killed; the client JVM closed after. */
    static Outcome measure(ReplicatedPeer peer) throws Exception {
        try (Workloads client = peer.workloads(1, 1); Failover failover = client.failover("failover")) {
            failover.start(SENDS_BEFORE_KILL);
            failover.killing();
            long killed = System.nanoTime();
            peer.killPrimary();
            LOG.info("primary killed; its JVM exited {} ms later", (System.nanoTime() - killed) / 1_000_000);
            return failover.exited(PATIENCE);
        }
    }
}
