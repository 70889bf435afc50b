package io.ramjet.bench;

import io.ramjet.bench.jms.JmsWorkloads;
import io.ramjet.bench.peer.PeerClassPath;
import io.ramjet.bench.peer.PeerProcess;
import io.ramjet.bench.peer.RamjetServerMain;
import io.ramjet.bench.peer.TemporaryDirectory;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * How long a Ramjet broker takes to come back after {@code kill -9} under load: a broker JVM
 * ({@link RamjetServerMain}) takes persistent sends at a fixed rate, with one consumer, for the
 * given seconds and is killed while the load runs; the time from starting it again on the same
 * data directory to its serving is set beside the time a clean restart of the same directory
 * takes (the JVM's own start, which both include). A lost checkpoint interval's worth of log is
 * what the first replays and the second does not.
 *
 * <p>Usage: {@code RecoveryTime [seconds (60) [messages per second (5000) [checkpoint ms (the
 * store's default)]]]}.
 */
public final class RecoveryTime {

    private RecoveryTime() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        List<String> jvmArgs = args.length > 2 ? List.of("-D" + RamjetServerMain.CHECKPOINT_PROPERTY + "=" + args[2])
                : List.of();
        PrintStream out = System.out;
        try (TemporaryDirectory dir = new TemporaryDirectory("ramjet-recovery")) {
            Path data = dir.path().resolve("data");
            PeerProcess loaded = PeerProcess.start(RamjetServerMain.class, "1g", PeerClassPath.distribution("ramjet"), jvmArgs, data);
            JmsWorkloads load = new JmsWorkloads(new RamjetConnectionFactory("ramjet://127.0.0.1:" + loaded.port()),
                    1, 1);
            CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
                try {
                    load.latency("recovery", 1024, rate, Duration.ofSeconds(seconds * 2L));
                } catch (Exception killed) {
                    // the broker is killed under it
                }
            });
            TimeUnit.SECONDS.sleep(seconds);
            ProcessHandle.of(loaded.pid()).ifPresent(ProcessHandle::destroyForcibly);
            loaded.close();
            load.close();
            running.get(60, TimeUnit.SECONDS);

            long began = System.nanoTime();
            PeerProcess recovered = PeerProcess.start(RamjetServerMain.class, "1g", PeerClassPath.distribution("ramjet"), jvmArgs, data);
            long recovery = System.nanoTime() - began;
            recovered.close();

            began = System.nanoTime();
            PeerProcess clean = PeerProcess.start(RamjetServerMain.class, "1g", PeerClassPath.distribution("ramjet"), jvmArgs, data);
            long cleanStart = System.nanoTime() - began;
            clean.close();
            out.printf("killed after %d s at %d msg/s: ready again in %d ms; a clean restart of the same directory: "
                    + "%d ms%n", seconds, rate, recovery / 1_000_000, cleanStart / 1_000_000);
        }
    }
}
