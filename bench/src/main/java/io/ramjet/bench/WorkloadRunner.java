package io.ramjet.bench;

import io.ramjet.bench.peer.Peer;
import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the chosen workloads on one peer and puts its figures into the results. A workload that
 * fails fills its rows with {@code error: <message>} and the run goes on with the next one; a
 * workload the peer has no counterpart for fills them with {@code n/a: <reason>}.
 */
public final class WorkloadRunner {

    private static final Logger LOG = LoggerFactory.getLogger(WorkloadRunner.class);
    private static final double MIB = 1 << 20;
    private static final int WARM_UP_ATTEMPTS = 3;
    private static final long WARM_UP_MESSAGES = 200;

    private final BenchConfig config;
    private final Results results;

    public WorkloadRunner(BenchConfig config, Results results) {
        this.config = config;
        this.results = results;
    }

    /** A measurement that may fail. */
    @FunctionalInterface
    private interface Measurement {
        void run() throws Exception;
    }

    public void run(Peer peer, List<Integer> workloads) throws Exception {
        try (Workloads w = peer.workloads(config.producers(), config.consumers())) {
            warmUp(peer, w);
            for (int workload : workloads) {
                LOG.info("{}: workload {}", peer.name(), workload);
                switch (workload) {
                    case 1 -> sendAndDrain(peer, w, "persistent", true, Rows.PERSISTENT_SEND, Rows.PERSISTENT_DRAIN);
                    case 2 -> sendAndDrain(peer, w, "nonpersistent", false, Rows.NON_PERSISTENT_SEND,
                            Rows.NON_PERSISTENT_DRAIN);
                    case 3 -> transacted(peer, w);
                    case 4 -> latency(peer, w);
                    case 5 -> selector(peer, w);
                    case 6 -> measure(peer, List.of(Rows.FAN_OUT), () -> results.put(Rows.FAN_OUT, peer.name(),
                            Cell.of(w.fanOut("fanout", config.scaled(BenchConfig.FAN_OUT_COUNT), config.size(),
                                    BenchConfig.SUBSCRIBERS).perSecond())));
                    case 7 -> backlog(peer, w);
                    case 8 -> measure(peer, List.of(Rows.ORDERED_GROUPS), () -> results.put(Rows.ORDERED_GROUPS,
                            peer.name(), Cell.of(w.orderedGroups("orderedgroups", BenchConfig.GROUPS,
                                    config.scaled(BenchConfig.GROUP_MESSAGES), config.size(),
                                    BenchConfig.GROUP_CONSUMERS).perSecond())));
                    default -> throw new IllegalArgumentException("no workload " + workload + "; they are 1 to 8");
                }
            }
        }
    }

    /**
     * Sends and receives a few hundred messages before anything is timed: the first destination
     * of a fresh broker may take seconds to create (files are allocated), and the JIT warms up.
     * Tries three times, then lets the workloads fail on their own.
     */
    private void warmUp(Peer peer, Workloads w) {
        for (int attempt = 1; attempt <= WARM_UP_ATTEMPTS; attempt++) {
            try {
                String queue = "warmup" + attempt;
                Rate sent = w.send(queue, WARM_UP_MESSAGES, config.size(), true, Duration.ofSeconds(30));
                w.drain(queue, sent.messages());
                return;
            } catch (Exception e) {
                LOG.warn("{}: warm-up attempt {} failed: {}", peer.name(), attempt, e.toString());
            }
        }
    }

    private void sendAndDrain(Peer peer, Workloads w, String queue, boolean persistent, Row sendRow, Row drainRow) {
        measure(peer, List.of(sendRow, drainRow), () -> {
            Rate sent = w.send(queue, config.scaled(BenchConfig.SEND_COUNT), config.size(), persistent,
                    config.phaseLimit());
            results.put(sendRow, peer.name(), Cell.of(sent.perSecond()));
            results.put(drainRow, peer.name(), Cell.of(w.drain(queue, sent.messages()).perSecond()));
        });
    }

    private void transacted(Peer peer, Workloads w) {
        for (int every : Rows.COMMIT_EVERY) {
            Row row = Rows.transacted(every);
            measure(peer, List.of(row), () -> {
                String queue = "transacted" + every;
                Rate sent = w.transactedSend(queue, config.scaled(BenchConfig.SEND_COUNT), config.size(), every,
                        config.phaseLimit());
                results.put(row, peer.name(), Cell.of(sent.perSecond()));
                w.drain(queue, sent.messages());
            });
        }
    }

    private void latency(Peer peer, Workloads w) {
        measure(peer, List.of(Rows.LATENCY_P50, Rows.LATENCY_P99, Rows.LATENCY_P999), () -> {
            Histogram h = w.latency("latency", config.size(), config.latencyRate(), config.latencyDuration());
            results.put(Rows.LATENCY_P50, peer.name(), Cell.of(h.getValueAtPercentile(50)));
            results.put(Rows.LATENCY_P99, peer.name(), Cell.of(h.getValueAtPercentile(99)));
            results.put(Rows.LATENCY_P999, peer.name(), Cell.of(h.getValueAtPercentile(99.9)));
        });
    }

    private void selector(Peer peer, Workloads w) {
        long count = config.scaled(BenchConfig.SELECTOR_COUNT);
        measure(peer, List.of(Rows.SELECTOR_TAGGED), () -> results.put(Rows.SELECTOR_TAGGED, peer.name(),
                Cell.of(w.selective("selectortagged", count, config.size(), true).toNanos() / 1e6)));
        measure(peer, List.of(Rows.SELECTOR_UNTAGGED), () -> results.put(Rows.SELECTOR_UNTAGGED, peer.name(),
                Cell.of(w.selective("selectoruntagged", count, config.size(), false).toNanos() / 1e6)));
    }

    private void backlog(Peer peer, Workloads w) {
        measure(peer, List.of(Rows.BACKLOG_STORE, Rows.BACKLOG_HEAP, Rows.BACKLOG_RSS, Rows.BACKLOG_DRAIN), () -> {
            Rate stored = w.sendAsync("backlog", config.scaled(BenchConfig.BACKLOG_COUNT), config.size(),
                    config.backlogLimit());
            results.put(Rows.BACKLOG_STORE, peer.name(), Cell.of(stored.perSecond()));
            results.put(Rows.BACKLOG_RSS, peer.name(), Cell.of(peer.residentBytes() / MIB));
            results.put(Rows.BACKLOG_HEAP, peer.name(), Cell.of(peer.liveHeapBytes() / MIB));
            LOG.info("{}: {} messages in the backlog", peer.name(), stored.messages());
            results.put(Rows.BACKLOG_DRAIN, peer.name(), Cell.of(w.drain("backlog", stored.messages()).perSecond()));
        });
    }

    /** Runs a measurement; on failure, fills those of its rows it has not filled yet. */
    private void measure(Peer peer, List<Row> rows, Measurement m) {
        try {
            if (!peer.isAlive()) {
                throw new IllegalStateException(peer.name() + " has exited");
            }
            m.run();
        } catch (NotApplicableException e) {
            fill(peer, rows, Cell.notApplicable(e.getMessage()));
        } catch (Exception | Error e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("{}: {} failed", peer.name(), rows.get(0).title(), e);
            fill(peer, rows, Cell.error(e));
        }
    }

    private void fill(Peer peer, List<Row> rows, Cell cell) {
        for (Row r : rows) {
            if (!results.has(r, peer.name())) {
                results.put(r, peer.name(), cell);
            }
        }
    }
}
