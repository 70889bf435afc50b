package io.ramjet.bench;

import io.ramjet.bench.peer.Peer;
import io.ramjet.bench.result.Cell;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import io.ramjet.bench.result.Rows;
import io.ramjet.bench.workload.BenchConfig;
import io.ramjet.bench.workload.Workloads;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The smallest reproduction of a drain that stalls: workload 1 then workload 2 at smoke size
 * ({@code --smoke}'s counts: 1,000 messages a row) on one Ramjet peer and one client JVM, again
 * and again, each iteration on destinations of its own, optionally beside busy threads that take
 * the CPU from the broker and the client, and with a pause between the two workloads (where a
 * full run has the other peers work while this one's client and broker wait idle). Prints one line per iteration and every failed row
 * with its message (a stalled drain's message carries the broker's in-flight state of its queue
 * and the client consumer's); the broker's output is kept in {@code bench/target/peer-logs}.
 *
 * <p>Usage: {@code DrainStallLoop [iterations (100) [busy threads (0) [pause ms (0) [segment MiB
 * (--smoke's) [warm-up (false)]]]]]}: a small CommitLog segment makes the log roll over within the
 * workloads; with warm-up, every workload runs once first at the smoke run's warm-up counts, as in a
 * smoke run's warm-up; exits 1 if any row failed.
 */
public final class DrainStallLoop {

    private DrainStallLoop() {
    }

    public static void main(String[] args) throws Exception {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int busy = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        long pause = args.length > 2 ? Long.parseLong(args[2]) : 0;
        int segmentMiB = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        boolean warmUp = args.length > 4 && Boolean.parseBoolean(args[4]);
        System.exit(run(iterations, busy, pause, segmentMiB, warmUp, System.out) == 0 ? 0 : 1);
    }

    /** Runs the loop (segment MiB 0: the smoke run's); returns how many iterations failed. */
    static int run(int iterations, int busy, long pauseMillis, int segmentMiB, boolean warmUp, PrintStream out)
            throws Exception {
        Bench bench = new Bench();
        List<String> args = new ArrayList<>(List.of("--smoke", "--peers", "ramjet"));
        if (segmentMiB > 0) {
            args.addAll(List.of("--ramjet-segment-mib", Integer.toString(segmentMiB)));
        }
        new picocli.CommandLine(bench).parseArgs(args.toArray(String[]::new));
        BenchConfig config = bench.config();
        AtomicBoolean spinning = new AtomicBoolean(true);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < busy; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (spinning.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    out.print("");
                }
            }, "busy-" + i);
            t.setDaemon(true);
            t.start();
            spinners.add(t);
        }
        int failed = 0;
        List<Row> rows = Rows.of(List.of(1, 2));
        try (Peer peer = Bench.start("ramjet", config)) {
            Workloads w = peer.workloads(config.producers(), config.consumers());
            try {
                WorkloadRunner runner = new WorkloadRunner(config);
                if (warmUp) {
                    WorkloadRunner warming = new WorkloadRunner(config.smokeWarmUp());
                    for (int workload = 1; workload <= 11; workload++) {
                        warming.run(peer, w, workload, "_warm", new Results(List.of(peer.name())));
                    }
                    out.println("warmed up: workloads 1 to 11 once");
                }
                for (int i = 1; i <= iterations; i++) {
                    long began = System.nanoTime();
                    Results results = new Results(List.of(peer.name()));
                    runner.run(peer, w, 1, "_i" + i, results);
                    Thread.sleep(pauseMillis); // stands for the other peers' turn, not for a condition
                    runner.run(peer, w, 2, "_i" + i, results);
                    List<String> errors = new ArrayList<>();
                    for (Row row : rows) {
                        if (results.has(row, peer.name())) {
                            Cell cell = results.cell(row, peer.name());
                            if (!cell.hasValue() && !cell.text().startsWith("n/a")) {
                                errors.add(row.title() + ": " + cell.text());
                            }
                        }
                    }
                    out.printf("iteration %d of %d (%d busy threads, %d ms pause): %s in %d ms%n", i, iterations,
                            busy, pauseMillis, errors.isEmpty() ? "ok" : "FAILED",
                            (System.nanoTime() - began) / 1_000_000);
                    errors.forEach(e -> out.println("  " + e));
                    out.flush();
                    if (!errors.isEmpty()) {
                        failed++;
                    }
                }
            } finally {
                w.close();
            }
        } finally {
            spinning.set(false);
        }
        out.printf("%d of %d iterations failed%n", failed, iterations);
        return failed;
    }
}
