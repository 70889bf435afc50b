package io.ramjet.bench;

import io.ramjet.bench.peer.ClientProcess;
import io.ramjet.bench.peer.JmsPeer;
import io.ramjet.bench.peer.Peer;
import io.ramjet.bench.peer.ReplicatedPeer;
import io.ramjet.bench.peer.RocketMqPeer;
import io.ramjet.bench.peer.ScaledPeer;
import io.ramjet.bench.report.CsvReport;
import io.ramjet.bench.report.SvgChart;
import io.ramjet.bench.report.TextTable;
import io.ramjet.bench.result.Cell;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import io.ramjet.bench.result.Rows;
import io.ramjet.bench.workload.BenchConfig;
import io.ramjet.bench.workload.BuildDirectory;
import io.ramjet.bench.workload.Workloads;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The side-by-side benchmark: starts each peer (Ramjet, Artemis, RocketMQ) in JVMs of its own
 * with the same heap and persistence on disk in a temporary directory, runs the chosen
 * workloads on it, stops it, and finally prints one table with every peer's figures and the
 * ratios Ramjet/peer, and writes the same as CSV and an SVG chart. The workloads are listed in
 * bench/README.md.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Ramjet, Artemis and RocketMQ side by side, in one run on this machine")
public final class Bench implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(Bench.class);
    private static final List<String> PEERS = List.of("ramjet", "artemis", "rocketmq", "ramjet-tls", "artemis-tls",
            "ramjet-metrics", "ramjet-sync2", "ramjet-async2", "artemis-replicated", "ramjet-groups2",
            "ramjet-groups3", "rocketmq-brokers2", "rocketmq-brokers3");
    /** The replicated Ramjet peers' slaves, and how many brokers hold a SYNC append: every one. */
    private static final int SLAVES = 2;

    @Option(names = "--size", description = "message body in bytes (default ${DEFAULT-VALUE})")
    int size = 1024;

    @Option(names = "--count", description = "factor on every named count: 200,000 sends, 100,000 selector "
            + "messages, 100,000 fan-out messages, 2,000,000 backlog (default 1, or 0.005 with --smoke)")
    Double count;

    @Option(names = "--producers", description = "producer threads in workloads 1, 2 and 7 (default ${DEFAULT-VALUE})")
    int producers = 1;

    @Option(names = "--consumers", description = "consumer threads in the drains (default ${DEFAULT-VALUE})")
    int consumers = 1;

    @Option(names = "--subscribers", description = "subscribers on workload 6's topic (default ${DEFAULT-VALUE})")
    int subscribers = 4;

    @Option(names = "--durable-subscribers", description = "workload 6 with durable subscriptions and persistent "
            + "messages (default: non-durable, non-persistent)")
    boolean durableSubscribers;

    @Option(names = "--peers", split = ",", description = "peers to run, of ramjet,artemis,rocketmq (default all),"
            + " ramjet-tls,artemis-tls (TLS on every connection), ramjet-metrics (metrics on, scraped every second),"
            + " ramjet-sync2,ramjet-async2 (a master and two slaves, SYNC or ASYNC) and artemis-replicated"
            + " (a live/backup pair, replication HA policy), ramjet-groups2,ramjet-groups3 and"
            + " rocketmq-brokers2,rocketmq-brokers3 (2 or 3 broker groups, every destination on each)")
    List<String> peers = List.of("ramjet", "artemis", "rocketmq");

    @Option(names = "--workloads", split = ",", description = "workloads to run, of 1..11 (default all)")
    List<Integer> workloads = List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);

    @Option(names = "--rate", description = "messages per second in the latency workload (default ${DEFAULT-VALUE})")
    int rate = 5_000;

    @Option(names = "--latency-seconds", description = "length of the latency run (default 30, or 2 with --smoke)")
    Integer latencySeconds;

    @Option(names = "--rounds", description = "timed rounds of every workload on every peer, peers interleaved; "
            + "the table shows the median and the spread (default 3, or 1 with --smoke)")
    Integer rounds;

    @Option(names = "--heap", description = "heap of every broker JVM (default ${DEFAULT-VALUE})")
    String heap = "1g";

    @Option(names = "--ramjet-segment-mib", description = "Ramjet's CommitLog segment in MiB (default: the "
            + "standalone server's 1024, or 64 with --smoke)")
    Integer ramjetSegmentMiB;

    @Option(names = "--artemis-journal-buffer-timeout", description = "Artemis's journal buffer timeout in ns "
            + "(default: measured when the peer starts, as artemis create measures it)")
    long artemisBufferTimeout;

    @Option(names = "--settle-seconds", description = "how long each timed round may wait for the machine to "
            + "settle: sync, then CPUs idle (default 60, or 0 with --smoke: no settling)")
    Integer settleSeconds;

    @Option(names = "--out", description = "directory for results.csv and results.svg "
            + "(default bench/target/results)")
    Path out;

    @Option(names = "--smoke", description = "a short run that keeps the harness honest: a few thousand messages, "
            + "2 s of latency, a small backlog, a warm-up at a tenth of the timed counts")
    boolean smoke;

    /** False for a test that checks the harness and needs every path once, not warm. */
    private boolean warmUp = true;
    private Results results;
    private Path csv;
    private Path setup;
    private Path svg;
    private Path efficiencySvg;

    /** Runs the benchmark and exits: client libraries of the peers leave threads behind. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Bench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        for (String p : peers) {
            if (!PEERS.contains(p)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "unknown peer " + p
                        + "; the peers are " + String.join(", ", PEERS));
            }
        }
        for (int w : workloads) {
            if (w < 1 || w > 11) {
                throw new CommandLine.ParameterException(new CommandLine(this), "no workload " + w
                        + "; they are 1 to 11");
            }
        }
        BenchConfig config = config();
        Path dir = out != null ? out : BuildDirectory.of("bench.results", "results");
        Instant began = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        results = run(config, !warmUp ? null : smoke ? config.smokeWarmUp() : config.warmUp(), peers, workloads);
        results.settings(Results.RUN, runSettings(config, began));
        String subtitle = String.format("%s, %d B bodies, count x%s, %d producer(s), %d consumer(s), heap %s, "
                        + "median of %d round(s) (~spread), %s", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                config.size(), config.scale(), config.producers(), config.consumers(), config.heap(),
                config.rounds(), machine());
        PrintStream stdout = System.out;
        stdout.println();
        stdout.println(subtitle);
        results.settings().forEach((subject, values) -> values.forEach((k, v) ->
                stdout.println(subject + ": " + k + " = " + v)));
        stdout.print(TextTable.render(results));
        Files.createDirectories(dir);
        csv = Files.writeString(dir.resolve("results.csv"), CsvReport.render(results), StandardCharsets.UTF_8);
        setup = Files.writeString(dir.resolve("setup.csv"), CsvReport.renderSettings(results), StandardCharsets.UTF_8);
        svg = Files.writeString(dir.resolve("results.svg"), SvgChart.render(results.only(r -> !Rows.isEfficiency(r)),
                subtitle), StandardCharsets.UTF_8);
        efficiencySvg = Files.writeString(dir.resolve("efficiency.svg"),
                SvgChart.render(results.only(Rows::isEfficiency), subtitle), StandardCharsets.UTF_8);
        stdout.println("CSV: " + csv.toAbsolutePath() + " (settings: " + setup.getFileName() + ")");
        stdout.println("SVG: " + svg.toAbsolutePath() + ", " + efficiencySvg.getFileName());
        return 0;
    }

    /**
     * Leaves out the warm-up (every workload on every peer before the timed rounds), for a test of
     * the harness: the timed round runs every path once.
     */
    Bench withoutWarmUp() {
        warmUp = false;
        return this;
    }

    /** The results of the last {@link #call()}, for a test. */
    Results results() {
        return results;
    }

    Path csv() {
        return csv;
    }

    Path svg() {
        return svg;
    }

    Path setup() {
        return setup;
    }

    Path efficiencySvg() {
        return efficiencySvg;
    }

    /** The run's own settings for the results: when, on what machine, with which options. */
    private Map<String, String> runSettings(BenchConfig config, Instant began) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("started", began.toString());
        s.put("finished", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        s.putAll(Machine.describe());
        s.put("commit", Machine.commit());
        s.put("peers", String.join(",", peers));
        s.put("workloads", workloads.stream().map(String::valueOf).collect(Collectors.joining(",")));
        s.put("size", config.size() + " B");
        s.put("count", Double.toString(config.scale()));
        s.put("producers", Integer.toString(config.producers()));
        s.put("consumers", Integer.toString(config.consumers()));
        s.put("subscribers", config.subscribers() + (config.durableSubscribers()
                ? " durable, persistent messages" : " non-durable, non-persistent messages"));
        s.put("rounds", Integer.toString(config.rounds()));
        s.put("latency", config.latencyRate() + " msg/s for " + config.latencyDuration().toSeconds() + " s");
        s.put("heap", config.heap());
        s.put("client heap", ClientProcess.HEAP);
        s.put("settle", config.settle().toSeconds() + " s");
        PeerOrder order = new PeerOrder(peers.size());
        List<String> orders = new ArrayList<>();
        for (int r = 0; r < config.rounds(); r++) {
            orders.add(order.of(r).stream().map(peers::get).collect(Collectors.joining(" ")));
        }
        s.put("peer orders", String.join("; ", orders));
        return s;
    }

    BenchConfig config() {
        double scale = count != null ? count : smoke ? 0.005 : 1;
        int latency = latencySeconds != null ? latencySeconds : smoke ? 2 : 30;
        int timed = rounds != null ? rounds : smoke ? 1 : 3;
        return new BenchConfig(size, scale, producers, consumers, rate, Duration.ofSeconds(latency), timed, heap,
                ramjetSegmentMiB != null ? ramjetSegmentMiB : smoke ? 64 : 0, artemisBufferTimeout,
                Duration.ofSeconds(settleSeconds != null ? settleSeconds : smoke ? 0 : 60), subscribers,
                durableSubscribers);
    }

    /**
     * Starts every peer, then runs every workload once on every peer as a warm-up (not recorded;
     * at the counts of {@code warmUp}: {@link BenchConfig#warmUp}, or {@link BenchConfig#smokeWarmUp}; none where it is
     * null), and only then each workload's timed rounds (so that the first
     * workload's rounds do not run on a client JVM still warming), every round on every peer in
     * the orders of a {@link PeerOrder} (each peer first and last equally often, and right after
     * each other peer equally often), so that no peer always goes first or runs on a machine the
     * same other peer has just warmed (or dirtied). Only one peer works at a time; the others wait idle. The table holds each
     * cell's median over the rounds, the latency percentiles from all rounds' samples together.
     */
    static Results run(BenchConfig config, BenchConfig warmUp, List<String> peers, List<Integer> workloads) {
        return run(config, warmUp, peers, workloads, name -> start(name, config), true);
    }

    /**
     * {@link #run(BenchConfig, BenchConfig, List, List)} on peers the caller started (a test that
     * starts each peer once for several checks): they stay up afterwards, only the clients this
     * starts for them are closed.
     */
    static Results runOn(BenchConfig config, BenchConfig warmUp, List<Peer> started, List<Integer> workloads) {
        List<String> names = started.stream().map(Peer::name).toList();
        return run(config, warmUp, names, workloads, name -> started.get(names.indexOf(name)), false);
    }

    /** Gives the peer of a name: starts it, or one the caller started. */
    private interface PeerSource {
        Peer peer(String name) throws IOException;
    }

    private static Results run(BenchConfig config, BenchConfig warmUp, List<String> peers, List<Integer> workloads,
                               PeerSource source, boolean owned) {
        Results results = new Results(peers);
        List<Row> rows = Rows.of(workloads);
        for (Row row : rows) {
            for (String p : peers) {
                results.put(row, p, Cell.notApplicable("not run"));
            }
        }
        List<Peer> running = new ArrayList<>();
        List<Workloads> clients = new ArrayList<>();
        try {
            for (String name : peers) {
                long began = System.nanoTime();
                try {
                    Peer peer = source.peer(name);
                    try {
                        clients.add(peer.workloads(config.producers(), config.consumers()));
                    } catch (Exception e) {
                        if (owned) {
                            peer.close();
                        }
                        throw e;
                    }
                    running.add(peer);
                    Map<String, String> settings = new LinkedHashMap<>(peer.settings());
                    settings.putAll(clients.get(clients.size() - 1).settings());
                    results.settings(name, settings);
                    LOG.info("{} started in {} ms", peer, (System.nanoTime() - began) / 1_000_000);
                } catch (Exception e) {
                    LOG.warn("{} failed to start", name, e);
                    for (Row row : rows) {
                        results.put(row, name, Cell.notApplicable(name + " did not run: " + message(e)));
                    }
                }
            }
            Results measured = measure(config, warmUp, workloads, peers, running, clients);
            for (Row row : rows) {
                for (String p : peers) {
                    if (measured.has(row, p)) {
                        results.put(row, p, measured.cell(row, p));
                    }
                }
            }
        } finally {
            for (int i = 0; i < running.size(); i++) {
                close(clients.get(i), running.get(i), owned);
            }
        }
        return results;
    }

    private static Results measure(BenchConfig config, BenchConfig warmUpConfig, List<Integer> workloads,
                                   List<String> peers, List<Peer> running, List<Workloads> clients) {
        WorkloadRunner warmUp = warmUpConfig == null ? null : new WorkloadRunner(warmUpConfig);
        WorkloadRunner timed = new WorkloadRunner(config);
        IdlePeers idle = new IdlePeers(running);
        PeerOrder order = new PeerOrder(running.size());
        if (config.rounds() % running.size() != 0) {
            LOG.warn("{} round(s) of {} peers: the peers run first and last equally often only in a multiple of {} "
                    + "rounds", config.rounds(), running.size(), running.size());
        } else if (config.rounds() % order.balancedRounds() != 0) {
            LOG.info("{} round(s): every peer runs first and last equally often; right after every other peer "
                    + "equally often only in a multiple of {} rounds", config.rounds(), order.balancedRounds());
        }
        List<Results> rounds = new ArrayList<>();
        for (int r = 0; r < config.rounds(); r++) {
            rounds.add(new Results(peers));
        }
        for (int workload : warmUp == null ? List.<Integer>of() : workloads) {
            for (int i = 0; i < running.size(); i++) {
                LOG.info("{}: warming up workload {}", running.get(i).name(), workload);
                idle.working(running.get(i));
                warmUp.run(running.get(i), clients.get(i), workload, "_warm", new Results(peers));
            }
        }
        for (int workload : workloads) {
            for (int r = 0; r < config.rounds(); r++) {
                for (int i : order.of(r)) {
                    LOG.info("{}: workload {}, round {}", running.get(i).name(), workload, r + 1);
                    idle.working(running.get(i));
                    QuietMachine.await(config.settle());
                    timed.run(running.get(i), clients.get(i), workload, "_r" + (r + 1), rounds.get(r));
                }
            }
        }
        Results median = Results.median(rounds);
        for (Peer peer : running) {
            Histogram all = timed.pooledLatency(peer.name());
            if (all != null) {
                LOG.info("{}: latency percentiles from {} samples", peer.name(), all.getTotalCount());
                median.put(Rows.LATENCY_P50, peer.name(),
                        median.cell(Rows.LATENCY_P50, peer.name()).withValue(all.getValueAtPercentile(50)));
                median.put(Rows.LATENCY_P99, peer.name(),
                        median.cell(Rows.LATENCY_P99, peer.name()).withValue(all.getValueAtPercentile(99)));
                median.put(Rows.LATENCY_P999, peer.name(),
                        median.cell(Rows.LATENCY_P999, peer.name()).withValue(all.getValueAtPercentile(99.9)));
            }
        }
        return median;
    }

    private static void close(Workloads client, Peer peer, boolean owned) {
        try {
            client.close();
        } catch (Exception e) {
            LOG.warn("closing the client of {} failed", peer.name(), e);
        }
        if (!owned) {
            return;
        }
        try {
            peer.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("stopping {} failed", peer.name(), e);
        }
    }

    static Peer start(String name, BenchConfig config) throws IOException {
        return switch (name) {
            case "ramjet" -> JmsPeer.ramjet(config.heap(), config.ramjetSegmentMiB());
            case "artemis" -> JmsPeer.artemis(config.heap(), (long) Workloads.ASYNC_WINDOW * config.size(),
                    config.artemisBufferTimeoutNanos());
            case "ramjet-tls" -> JmsPeer.ramjetTls(config.heap(), config.ramjetSegmentMiB());
            case "ramjet-metrics" -> JmsPeer.ramjetMetrics(config.heap(), config.ramjetSegmentMiB());
            case "artemis-tls" -> JmsPeer.artemisTls(config.heap(), (long) Workloads.ASYNC_WINDOW * config.size(),
                    config.artemisBufferTimeoutNanos());
            case "rocketmq" -> RocketMqPeer.start(config.heap());
            case "ramjet-sync2" -> ReplicatedPeer.ramjet(name, config.heap(), config.ramjetSegmentMiB(),
                    ReplicationConfig.Mode.SYNC, SLAVES + 1, SLAVES);
            case "ramjet-async2" -> ReplicatedPeer.ramjet(name, config.heap(), config.ramjetSegmentMiB(),
                    ReplicationConfig.Mode.ASYNC, 1, SLAVES);
            case "artemis-replicated" -> ReplicatedPeer.artemis(config.heap(),
                    (long) Workloads.ASYNC_WINDOW * config.size(), config.artemisBufferTimeoutNanos());
            case "ramjet-groups2" -> ScaledPeer.ramjet(2, config.heap(), config.ramjetSegmentMiB());
            case "ramjet-groups3" -> ScaledPeer.ramjet(3, config.heap(), config.ramjetSegmentMiB());
            case "rocketmq-brokers2" -> ScaledPeer.rocketMq(2, config.heap());
            case "rocketmq-brokers3" -> ScaledPeer.rocketMq(3, config.heap());
            default -> throw new IllegalArgumentException("unknown peer " + name);
        };
    }

    private static String message(Throwable e) {
        String m = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        return m.lines().findFirst().orElse(m);
    }

    private static String machine() {
        return Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + Runtime.version().feature();
    }
}
