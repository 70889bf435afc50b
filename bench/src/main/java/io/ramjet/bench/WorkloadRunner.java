package io.ramjet.bench;

import io.ramjet.bench.peer.Peer;
import io.ramjet.bench.peer.PeerProcess;
import io.ramjet.bench.result.Cell;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import io.ramjet.bench.result.Rows;
import io.ramjet.bench.workload.Acknowledgement;
import io.ramjet.bench.workload.BenchConfig;
import io.ramjet.bench.workload.FanOut;
import io.ramjet.bench.workload.NotApplicableException;
import io.ramjet.bench.workload.Rate;
import io.ramjet.bench.workload.Workloads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one workload on one peer and puts its figures into a round's results. A workload that
 * fails fills its rows with {@code error: <message>} and the run goes on; a workload the peer has
 * no counterpart for fills them with {@code n/a: <reason>}. Every call uses destinations of its
 * own (named with the caller's suffix). The latency histograms of every call are also pooled per
 * peer, so that the high percentiles of several rounds come from all their samples.
 */
public final class WorkloadRunner {

    private static final Logger LOG = LoggerFactory.getLogger(WorkloadRunner.class);
    private static final double MIB = 1 << 20;

    private final BenchConfig config;
    private final Map<String, Histogram> pooledLatency = new HashMap<>();

    public WorkloadRunner(BenchConfig config) {
        this.config = config;
    }

    /** A measurement that may fail. */
    @FunctionalInterface
    private interface Measurement {
        void run() throws Exception;
    }

    /** A phase that moves messages and gives their rate. */
    @FunctionalInterface
    private interface Phase {
        Rate run() throws Exception;
    }

    /** Runs {@code workload} (1 to 11) on {@code peer} through {@code w}, its figures into {@code results}. */
    public void run(Peer peer, Workloads w, int workload, String suffix, Results results) {
        Round round = new Round(peer, w, suffix, results);
        switch (workload) {
            case 1 -> round.persistent();
            case 2 -> round.nonPersistent();
            case 3 -> round.transacted();
            case 4 -> round.latency();
            case 5 -> round.selector();
            case 6 -> round.fanOut(Rows.FAN_OUT, "fanout" + suffix, config.subscribers(),
                    config.durableSubscribers());
            case 7 -> round.backlog();
            case 8 -> round.measure(List.of(Rows.ORDERED_GROUPS), () -> round.timed(Rows.ORDERED_GROUPS,
                    () -> w.orderedGroups("orderedgroups" + suffix, BenchConfig.GROUPS,
                            config.scaled(BenchConfig.GROUP_MESSAGES), config.size(), BenchConfig.GROUP_CONSUMERS)));
            case 9 -> round.manyDestinations();
            case 10 -> round.scale();
            case 11 -> round.large();
            default -> throw new IllegalArgumentException("no workload " + workload + "; they are 1 to 11");
        }
    }

    /** Every latency sample this runner took on {@code peer}, or null if it took none. */
    public Histogram pooledLatency(String peer) {
        return pooledLatency.get(peer);
    }

    /** One call of {@link #run}: the peer, its client, the destination suffix and where figures go. */
    private final class Round {
        private final Peer peer;
        private final Workloads w;
        private final String suffix;
        private final Results results;

        Round(Peer peer, Workloads w, String suffix, Results results) {
            this.peer = peer;
            this.w = w;
            this.suffix = suffix;
            this.results = results;
        }

        /**
         * Runs {@code phase} between two readings of the brokers' usage, puts its rate on
         * {@code row} and the usage on {@code row}'s efficiency rows, and returns the rate.
         */
        Rate timed(Row row, Phase phase) throws Exception {
            BrokerUsage usage = BrokerUsage.start(peer);
            Rate rate = phase.run();
            usage.stop(row, rate.messages(), results);
            results.put(row, peer.name(), Cell.of(rate.perSecond()));
            return rate;
        }

        /**
         * Workload 1: the timed persistent send, then a drain in every acknowledgement mode: the
         * client's first mode takes the sent messages, every other mode a queue of as many
         * stored untimed (asynchronous persistent sends). A mode the client has not reads n/a.
         */
        void persistent() {
            List<Row> rows = new ArrayList<>(List.of(Rows.PERSISTENT_SEND));
            for (Acknowledgement ack : Acknowledgement.values()) {
                rows.add(Rows.persistentDrain(ack));
            }
            measure(rows, () -> {
                Rate sent = timed(Rows.PERSISTENT_SEND, () -> w.send("persistent" + suffix,
                        config.scaled(BenchConfig.SEND_COUNT), config.size(), true));
                Acknowledgement first = w.acknowledgements().get(0);
                for (Acknowledgement ack : Acknowledgement.values()) {
                    Row row = Rows.persistentDrain(ack);
                    String gap = w.acknowledgementGap(ack);
                    if (gap != null) {
                        fill(withEfficiency(List.of(row)), Cell.notApplicable(gap));
                        continue;
                    }
                    measure(List.of(row), () -> {
                        String queue = ack == first ? "persistent" + suffix
                                : "persistent" + ack.name().toLowerCase(Locale.ROOT).replace("_", "") + suffix;
                        if (ack != first) {
                            w.sendAsync(queue, sent.messages(), config.size());
                        }
                        timed(row, () -> w.drain(queue, sent.messages(), ack));
                    });
                }
            });
        }

        /** Workload 2: non-persistent send and drain, the drain in the client's first mode. */
        void nonPersistent() {
            measure(List.of(Rows.NON_PERSISTENT_SEND, Rows.NON_PERSISTENT_DRAIN), () -> {
                String queue = "nonpersistent" + suffix;
                Rate sent = timed(Rows.NON_PERSISTENT_SEND, () -> w.send(queue,
                        config.scaled(BenchConfig.SEND_COUNT), config.size(), false));
                timed(Rows.NON_PERSISTENT_DRAIN, () -> w.drain(queue, sent.messages()));
            });
        }

        void transacted() {
            for (int every : Rows.COMMIT_EVERY) {
                Row row = Rows.transacted(every);
                measure(List.of(row), () -> {
                    String queue = "transacted" + every + suffix;
                    Rate sent = timed(row, () -> w.transactedSend(queue, config.scaled(BenchConfig.SEND_COUNT),
                            config.size(), every));
                    w.drain(queue, sent.messages());
                });
            }
            measure(List.of(Rows.LARGE_TRANSACTION), () -> {
                String queue = "largetransaction" + suffix;
                long count = config.scaled(BenchConfig.LARGE_TRANSACTION_COUNT);
                Duration commit = w.largeTransactionCommit(queue, count, config.size());
                results.put(Rows.LARGE_TRANSACTION, peer.name(), Cell.of(commit.toMillis()));
                w.drain(queue, count);
            });
        }

        void latency() {
            measure(List.of(Rows.LATENCY_P50, Rows.LATENCY_P99, Rows.LATENCY_P999), () -> {
                BrokerUsage usage = BrokerUsage.start(peer);
                Histogram h = w.latency("latency" + suffix, config.size(), config.latencyRate(),
                        config.latencyDuration());
                usage.stop(Rows.LATENCY_P999, config.latencyRate() * config.latencyDuration().toSeconds(), results);
                results.put(Rows.LATENCY_P50, peer.name(), Cell.of(h.getValueAtPercentile(50)));
                results.put(Rows.LATENCY_P99, peer.name(), Cell.of(h.getValueAtPercentile(99)));
                results.put(Rows.LATENCY_P999, peer.name(), Cell.of(h.getValueAtPercentile(99.9)));
                pooledLatency.computeIfAbsent(peer.name(), p -> new Histogram(h.getHighestTrackableValue(),
                        h.getNumberOfSignificantValueDigits())).add(h);
            });
        }

        void selector() {
            long count = config.scaled(BenchConfig.SELECTOR_COUNT);
            measure(List.of(Rows.SELECTOR_TAGGED), () -> results.put(Rows.SELECTOR_TAGGED, peer.name(),
                    Cell.of(w.selective("selectortagged" + suffix, count, config.size(), true).toNanos() / 1e6)));
            measure(List.of(Rows.SELECTOR_UNTAGGED), () -> results.put(Rows.SELECTOR_UNTAGGED, peer.name(),
                    Cell.of(w.selective("selectoruntagged" + suffix, count, config.size(), false).toNanos() / 1e6)));
        }

        /**
         * A fan-out row: {@code subscribers} subscribers of {@code topic} and its producer are
         * opened untimed, then the producer's {@link BenchConfig#FAN_OUT_COUNT} messages (scaled)
         * are timed to their last delivery, the brokers' CPU and heap read around that only; the
         * subscribers close untimed. Every row of any subscriber count sends as many messages,
         * so each subscriber receives all of them and the row's deliveries grow with its
         * subscribers.
         */
        void fanOut(Row row, String topic, int subscribers, boolean durable) {
            measure(List.of(row), () -> {
                try (FanOut f = w.openFanOut(topic, subscribers, durable)) {
                    timed(row, () -> f.send(config.scaled(BenchConfig.FAN_OUT_COUNT), config.size()));
                }
            });
        }

        void backlog() {
            measure(List.of(Rows.BACKLOG_STORE, Rows.BACKLOG_HEAP, Rows.BACKLOG_RSS, Rows.BACKLOG_DRAIN), () -> {
                String queue = "backlog" + suffix;
                Rate stored = timed(Rows.BACKLOG_STORE, () -> w.sendAsync(queue,
                        config.scaled(BenchConfig.BACKLOG_COUNT), config.size()));
                results.put(Rows.BACKLOG_RSS, peer.name(), Cell.of(peer.residentBytes() / MIB));
                results.put(Rows.BACKLOG_HEAP, peer.name(), Cell.of(peer.liveHeapBytes() / MIB));
                timed(Rows.BACKLOG_DRAIN, () -> w.drain(queue, stored.messages()));
            });
        }

        /**
         * Disk and heap are the broker's after the queues are stored: the disk row is what the
         * data directory grew by during the call, the heap row the whole live heap (so it grows
         * from round to round: earlier rounds' queues stay until the run ends).
         */
        void manyDestinations() {
            measure(List.of(Rows.DESTINATIONS_CREATED, Rows.DESTINATIONS_DISK, Rows.DESTINATIONS_HEAP), () -> {
                long before = peer.diskBytes();
                timed(Rows.DESTINATIONS_CREATED, () -> w.manyDestinations("many" + suffix + "-",
                        (int) config.scaled(BenchConfig.DESTINATIONS), config.size()));
                results.put(Rows.DESTINATIONS_DISK, peer.name(), Cell.of((peer.diskBytes() - before) / MIB));
                results.put(Rows.DESTINATIONS_HEAP, peer.name(), Cell.of(peer.liveHeapBytes() / MIB));
            });
            measure(List.of(Rows.TEMPORARY_QUEUE_MEAN, Rows.TEMPORARY_QUEUE_P99), () -> {
                Histogram h = w.temporaryQueues((int) config.scaled(BenchConfig.TEMPORARY_QUEUES));
                results.put(Rows.TEMPORARY_QUEUE_MEAN, peer.name(), Cell.of(h.getMean()));
                results.put(Rows.TEMPORARY_QUEUE_P99, peer.name(), Cell.of(h.getValueAtPercentile(99)));
            });
        }

        /**
         * Workload 10, how each broker scales: persistent sends from 1, 8 and 64 producers, each
         * queue then drained by as many competing consumers in the client's first mode (a JMS client's
         * AUTO_ACKNOWLEDGE, RocketMQ's offset commits); a topic's persistent
         * messages to 1, 10 and 100 durable subscribers (the same messages in each row, {@link #fanOut}); 256 B,
         * 64 KiB and 1 MiB messages sent and drained by the run's producers and consumers (at most
         * {@link BenchConfig#SIZED_BYTES} each); and the broker's live heap per connection that holds
         * a consumer.
         */
        void scale() {
            long count = config.scaled(BenchConfig.SEND_COUNT);
            for (int n : Rows.SCALE_CLIENTS) {
                measure(List.of(Rows.scaleSend(n), Rows.scaleDrain(n)), () -> {
                    String queue = "scale" + n + suffix;
                    Rate sent = timed(Rows.scaleSend(n), () -> w.send(queue, count, config.size(), true, n));
                    timed(Rows.scaleDrain(n), () -> w.drain(queue, sent.messages(), w.acknowledgements().get(0), n));
                });
            }
            for (int n : Rows.SCALE_SUBSCRIBERS) {
                fanOut(Rows.scaleFanOut(n), "scalefanout" + n + suffix, n, true);
            }
            for (int size : Rows.SCALE_SIZES) {
                long messages = Math.min(count, config.scaled(BenchConfig.SIZED_BYTES / size));
                measure(List.of(Rows.sizedSend(size), Rows.sizedDrain(size)), () -> {
                    String queue = "sized" + size + suffix;
                    Rate sent = timed(Rows.sizedSend(size), () -> w.send(queue, messages, size, true));
                    timed(Rows.sizedDrain(size), () -> w.drain(queue, sent.messages()));
                });
            }
            measure(List.of(Rows.CONNECTION_HEAP), () -> {
                long before = peer.liveHeapBytes();
                try (AutoCloseable open = w.openConsumers("connections" + suffix, Rows.SCALE_CONNECTIONS)) {
                    long during = peer.liveHeapBytes();
                    results.put(Rows.CONNECTION_HEAP, peer.name(),
                            Cell.of((during - before) / 1024.0 / Rows.SCALE_CONNECTIONS));
                }
            });
        }

        /**
         * Workload 11, large messages: for each of {@link Rows#LARGE_SIZES}, one producer sends
         * persistent messages of that size, each body streamed from an {@code InputStream}, then
         * one consumer drains them into an {@code OutputStream} ({@link Workloads#largeSend},
         * {@link Workloads#largeDrain}); the rates in MiB/s, and the peak heap of the client's JVM
         * (its own, where it runs in one) and of the brokers' over both phases, each from a full collection.
         */
        void large() {
            for (int size : Rows.LARGE_SIZES) {
                long count = config.largeCount(size);
                measure(Rows.large(size), () -> {
                    String queue = "large" + (size >> 20) + "mib" + suffix;
                    collectEverywhere();
                    w.peakHeapBytes();
                    BrokerUsage brokers = BrokerUsage.start(peer);
                    Rate sent = w.largeSend(queue, count, size);
                    results.put(Rows.largeSend(size), peer.name(), Cell.of(sent.perSecond() * size / MIB));
                    Rate drained = w.largeDrain(queue, count, size);
                    results.put(Rows.largeDrain(size), peer.name(), Cell.of(drained.perSecond() * size / MIB));
                    results.put(Rows.largeClientHeap(size), peer.name(), Cell.of(w.peakHeapBytes() / MIB));
                    results.put(Rows.largeBrokerHeap(size), peer.name(), brokers.peakHeap());
                });
            }
        }

        /**
         * A full collection in the client's JVM and in every broker JVM, so that the heap peaks that follow
         * start from the live heap, not from the garbage of what ran before (a broker not collected
         * since its start would count all of its start's).
         */
        private void collectEverywhere() throws Exception {
            w.collectGarbage();
            for (PeerProcess p : peer.processes()) {
                p.liveHeapBytes();
            }
        }

        /**
         * Runs a measurement; on failure, fills those of its rows (and of their efficiency rows)
         * it has not filled yet.
         */
        void measure(List<Row> measured, Measurement m) {
            List<Row> rows = withEfficiency(measured);
            try {
                if (!peer.isAlive()) {
                    throw new IllegalStateException(peer.name() + " has exited");
                }
                m.run();
            } catch (NotApplicableException e) {
                fill(rows, Cell.notApplicable(e.getMessage()));
            } catch (Exception | Error e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.warn("{}: {} failed", peer.name(), rows.get(0).title(), e);
                fill(rows, Cell.error(e));
            }
        }

        private static List<Row> withEfficiency(List<Row> rows) {
            List<Row> all = new ArrayList<>();
            for (Row r : rows) {
                all.add(r);
                if (Rows.measuresEfficiency(r)) {
                    all.add(Rows.cpu(r));
                    all.add(Rows.peakHeap(r));
                }
            }
            return all;
        }

        private void fill(List<Row> rows, Cell cell) {
            for (Row r : rows) {
                if (!results.has(r, peer.name())) {
                    results.put(r, peer.name(), cell);
                }
            }
        }
    }
}
