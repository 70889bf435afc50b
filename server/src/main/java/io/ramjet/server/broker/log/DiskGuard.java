package io.ramjet.server.broker.log;

import io.ramjet.storage.OwnerOnly;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoubleSupplier;

/**
 * Holds sends back while the disk holding the data directory is fuller than the configured
 * fraction, so producers get a clear error (a ResourceAllocationException in JMS) long before
 * the store itself runs out of room. With a zero block time a send past the limit is refused at
 * once; otherwise it waits, re-reading the usage every {@link #RECHECK}, for room up to that
 * long, and is refused after. The usage is sampled at most once a second while under the limit.
 * Acks and subscription changes are never held: they are small and let consumers free space.
 * Thread-safe.
 */
public final class DiskGuard {

    static final Duration RECHECK = Duration.ofMillis(100);
    private static final long SAMPLE_NANOS = 1_000_000_000L;

    private final DoubleSupplier usage;
    private final double useLimit;
    private final long blockNanos;
    private volatile long sampledAt = System.nanoTime() - 2 * SAMPLE_NANOS;
    private volatile double used;

    public DiskGuard(Path dataDir, double useLimit, Duration block) throws IOException {
        this(usageOf(dataDir), useLimit, block);
    }

    DiskGuard(DoubleSupplier usage, double useLimit, Duration block) {
        this.usage = usage;
        this.useLimit = useLimit;
        this.blockNanos = block.toNanos();
    }

    /**
     * Returns when the disk has room, at once in the common case.
     *
     * @throws BrokerException DISK_FULL when the disk stays past its use limit
     */
    public void checkSend() {
        if (!holding()) {
            return;
        }
        long now = System.nanoTime();
        long deadline = now + blockNanos;
        while (System.nanoTime() < deadline) {
            LockSupport.parkNanos(Math.min(RECHECK.toNanos(), deadline - System.nanoTime()));
            used = usage.getAsDouble();
            sampledAt = System.nanoTime();
            if (used <= useLimit) {
                return;
            }
        }
        throw new BrokerException(Refusal.DISK_FULL, String.format(
                "disk %.1f%% used, above the broker's limit of %.1f%%%s: send refused", used * 100, useLimit * 100,
                blockNanos == 0 ? "" : " for " + TimeUnit.NANOSECONDS.toMillis(blockNanos) + " ms"));
    }

    /**
     * Whether a send would be held (or refused) now: the disk is past its use limit, as last
     * sampled (sampled again when the sample is over a second old). Never blocks.
     */
    public boolean holding() {
        long now = System.nanoTime();
        if (now - sampledAt > SAMPLE_NANOS) {
            used = usage.getAsDouble();
            sampledAt = now;
        }
        return used > useLimit;
    }

    private static DoubleSupplier usageOf(Path dataDir) throws IOException {
        OwnerOnly.createDirectories(dataDir);
        FileStore disk = Files.getFileStore(dataDir);
        return () -> {
            try {
                long total = disk.getTotalSpace();
                return total == 0 ? 0 : 1.0 - (double) disk.getUsableSpace() / total;
            } catch (IOException e) {
                return 0;
            }
        };
    }
}
