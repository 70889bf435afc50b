package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Refuses sends while the disk holding the data directory is fuller than the configured
 * fraction, so producers get a clear error (a ResourceAllocationException in JMS) long before
 * the store itself runs out of room. The usage is sampled at most once a second. Acks and
 * subscription changes are not refused: they are small and let consumers free space.
 * Thread-safe.
 */
public final class DiskGuard {

    private static final long SAMPLE_NANOS = 1_000_000_000L;

    private final FileStore disk;
    private final double useLimit;
    private volatile long sampledAt = System.nanoTime() - 2 * SAMPLE_NANOS;
    private volatile double used;

    public DiskGuard(Path dataDir, double useLimit) throws IOException {
        Files.createDirectories(dataDir);
        this.disk = Files.getFileStore(dataDir);
        this.useLimit = useLimit;
    }

    /** @throws RemotingCommandException STORE_FULL when the disk is past its use limit */
    public void checkSend() throws RemotingCommandException {
        long now = System.nanoTime();
        if (now - sampledAt > SAMPLE_NANOS) {
            sample();
            sampledAt = now;
        }
        if (used > useLimit) {
            throw new RemotingCommandException(ErrorStatus.STORE_FULL, String.format(
                    "disk %.1f%% used, above the broker's limit of %.1f%%: send refused", used * 100, useLimit * 100));
        }
    }

    private void sample() {
        try {
            long total = disk.getTotalSpace();
            used = total == 0 ? 0 : 1.0 - (double) disk.getUsableSpace() / total;
        } catch (IOException e) {
            used = 0;
        }
    }
}
