package io.ramjet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets the machine settle before a timed round: writes the page cache's dirty pages to disk
 * ({@code sync}), then waits until the CPUs are idle (within a bound the run sets), so that a
 * peer does not pay in its round for what the peers before it left behind (files the kernel
 * would write back while it forces its own, a broker still busy after its round). Where
 * {@code sync} or {@code /proc/stat} is missing, that part is skipped.
 */
final class QuietMachine {

    private static final Logger LOG = LoggerFactory.getLogger(QuietMachine.class);
    private static final long SYNC_MAX_SECONDS = 120;
    /** The machine counts as idle once a half-second window is below this share of busy CPU time. */
    private static final double IDLE_BELOW = 0.15;
    private static final long WINDOW_MILLIS = 500;

    private QuietMachine() {
    }

    /** Settles within about {@code atMost} (sync included); a zero duration does nothing. */
    static void await(Duration atMost) {
        if (atMost.isZero()) {
            return;
        }
        long began = System.nanoTime();
        sync();
        long synced = System.nanoTime();
        double busy = awaitIdle(began + atMost.toNanos());
        LOG.info("settled before the round: sync {} ms, then {} ms until the CPUs were idle (last window {}% busy)",
                TimeUnit.NANOSECONDS.toMillis(synced - began), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - synced),
                Math.round(busy * 100));
    }

    private static void sync() {
        try {
            Process sync = new ProcessBuilder("sync").redirectErrorStream(true).start();
            if (!sync.waitFor(SYNC_MAX_SECONDS, TimeUnit.SECONDS)) {
                sync.destroyForcibly();
                LOG.warn("sync did not end within {} s", SYNC_MAX_SECONDS);
            }
        } catch (IOException e) {
            LOG.debug("sync cannot run here: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for a quiet window until {@code deadline} (nanoTime); returns the last window's busy share, -1 if unknown. */
    private static double awaitIdle(long deadline) {
        long[] before = cpuTimes();
        if (before == null) {
            return -1;
        }
        double busy = 1;
        while (busy >= IDLE_BELOW && System.nanoTime() < deadline) {
            try {
                Thread.sleep(WINDOW_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return busy;
            }
            long[] after = cpuTimes();
            if (after == null) {
                return -1;
            }
            long total = after[0] - before[0];
            busy = total <= 0 ? 0 : 1 - (double) (after[1] - before[1]) / total;
            before = after;
        }
        return busy;
    }

    /** Total and idle (idle + iowait) jiffies of all CPUs, from /proc/stat; null where it cannot be read. */
    private static long[] cpuTimes() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            return new long[] {total, Long.parseLong(f[4]) + Long.parseLong(f[5])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
