package io.ramjet.bench;

import io.ramjet.bench.peer.JmsPeer;
import io.ramjet.bench.peer.Peer;
import io.ramjet.bench.peer.RocketMqPeer;
import io.ramjet.bench.report.CsvReport;
import io.ramjet.bench.report.SvgChart;
import io.ramjet.bench.report.TextTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

    @Option(names = "--size", description = "message body in bytes (default ${DEFAULT-VALUE})")
    int size = 1024;

    @Option(names = "--count", description = "factor on every named count: 200,000 sends, 100,000 selector "
            + "messages, 100,000 fan-out messages, 2,000,000 backlog (default 1, or 0.005 with --smoke)")
    Double count;

    @Option(names = "--producers", description = "producer threads in workloads 1, 2 and 7 (default ${DEFAULT-VALUE})")
    int producers = 1;

    @Option(names = "--consumers", description = "consumer threads in the drains (default ${DEFAULT-VALUE})")
    int consumers = 1;

    @Option(names = "--peers", split = ",", description = "peers to run, of ramjet,artemis,rocketmq (default all)")
    List<String> peers = List.of("ramjet", "artemis", "rocketmq");

    @Option(names = "--workloads", split = ",", description = "workloads to run, of 1..8 (default all)")
    List<Integer> workloads = List.of(1, 2, 3, 4, 5, 6, 7, 8);

    @Option(names = "--rate", description = "messages per second in the latency workload (default ${DEFAULT-VALUE})")
    int rate = 5_000;

    @Option(names = "--latency-seconds", description = "length of the latency run (default 30, or 2 with --smoke)")
    Integer latencySeconds;

    @Option(names = "--max-seconds", description = "time limit of each send phase that may be slow; the figure is "
            + "taken over what it sent (default 60, or 2 with --smoke; the backlog gets five times this)")
    Integer maxSeconds;

    @Option(names = "--heap", description = "heap of every broker JVM (default ${DEFAULT-VALUE})")
    String heap = "1g";

    @Option(names = "--ramjet-segment-mib", description = "Ramjet's CommitLog segment in MiB (default: the "
            + "standalone server's 1024, or 64 with --smoke)")
    Integer ramjetSegmentMiB;

    @Option(names = "--out", description = "directory for results.csv and results.svg "
            + "(default bench/target/results)")
    Path out;

    @Option(names = "--smoke", description = "a short run that keeps the harness honest: a few thousand messages, "
            + "2 s of latency, a small backlog")
    boolean smoke;

    private Results results;
    private Path csv;
    private Path svg;

    /** Runs the benchmark and exits: client libraries of the peers leave threads behind. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Bench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        for (String p : peers) {
            if (!List.of("ramjet", "artemis", "rocketmq").contains(p)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "unknown peer " + p
                        + "; the peers are ramjet, artemis, rocketmq");
            }
        }
        for (int w : workloads) {
            if (w < 1 || w > 8) {
                throw new CommandLine.ParameterException(new CommandLine(this), "no workload " + w
                        + "; they are 1 to 8");
            }
        }
        BenchConfig config = config();
        Path dir = out != null ? out : defaultOut();
        results = run(config, peers, workloads);
        String subtitle = String.format("%s, %d B bodies, count x%s, %d producer(s), %d consumer(s), heap %s, %s",
                Instant.now().truncatedTo(ChronoUnit.SECONDS), config.size(), config.scale(), config.producers(),
                config.consumers(), config.heap(), machine());
        PrintStream stdout = System.out;
        stdout.println();
        stdout.println(subtitle);
        stdout.print(TextTable.render(results));
        Files.createDirectories(dir);
        csv = Files.writeString(dir.resolve("results.csv"), CsvReport.render(results), StandardCharsets.UTF_8);
        svg = Files.writeString(dir.resolve("results.svg"), SvgChart.render(results, subtitle), StandardCharsets.UTF_8);
        stdout.println("CSV: " + csv.toAbsolutePath());
        stdout.println("SVG: " + svg.toAbsolutePath());
        return 0;
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

    BenchConfig config() {
        double scale = count != null ? count : smoke ? 0.005 : 1;
        int latency = latencySeconds != null ? latencySeconds : smoke ? 2 : 30;
        int limit = maxSeconds != null ? maxSeconds : smoke ? 2 : 60;
        return new BenchConfig(size, scale, producers, consumers, rate, Duration.ofSeconds(latency),
                Duration.ofSeconds(limit), Duration.ofSeconds(5L * limit), heap,
                ramjetSegmentMiB != null ? ramjetSegmentMiB : smoke ? 64 : 0);
    }

    /** Runs every peer in turn, one at a time so they do not compete for the machine. */
    static Results run(BenchConfig config, List<String> peers, List<Integer> workloads) {
        Results results = new Results(peers);
        List<Row> rows = Rows.of(workloads);
        for (Row row : rows) {
            for (String p : peers) {
                results.put(row, p, Cell.notApplicable("not run"));
            }
        }
        Results measured = new Results(peers);
        WorkloadRunner runner = new WorkloadRunner(config, measured);
        for (String name : peers) {
            LOG.info("starting {}", name);
            long began = System.nanoTime();
            try (Peer peer = start(name, config)) {
                LOG.info("{} started in {} ms", peer, (System.nanoTime() - began) / 1_000_000);
                runner.run(peer, workloads);
            } catch (Exception e) {
                LOG.warn("{} failed", name, e);
                for (Row row : rows) {
                    if (!measured.has(row, name)) {
                        measured.put(row, name, Cell.notApplicable(name + " did not run: " + message(e)));
                    }
                }
            }
            LOG.info("{} done in {} s", name, (System.nanoTime() - began) / 1_000_000_000);
        }
        for (Row row : rows) {
            for (String p : peers) {
                if (measured.has(row, p)) {
                    results.put(row, p, measured.cell(row, p));
                }
            }
        }
        return results;
    }

    private static Peer start(String name, BenchConfig config) throws IOException {
        return switch (name) {
            case "ramjet" -> JmsPeer.ramjet(config.heap(), config.ramjetSegmentMiB());
            case "artemis" -> JmsPeer.artemis(config.heap());
            case "rocketmq" -> RocketMqPeer.start(config.heap());
            default -> throw new IllegalArgumentException("unknown peer " + name);
        };
    }

    private static String message(Throwable e) {
        String m = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        return m.lines().findFirst().orElse(m);
    }

    private static Path defaultOut() {
        String fromMaven = System.getProperty("bench.results");
        if (fromMaven != null) {
            return Path.of(fromMaven);
        }
        return Files.isDirectory(Path.of("bench", "target")) ? Path.of("bench", "target", "results")
                : Path.of("target", "results");
    }

    private static String machine() {
        return Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + Runtime.version().feature();
    }
}
