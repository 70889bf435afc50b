package io.ramjet.server.broker.admin;

import io.ramjet.model.stats.BrokerFacts;
import io.ramjet.protocol.RamjetVersion;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.transaction.TransactionTable;
import io.ramjet.storage.MessageStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A broker's facts for an operator: version, uptime, disk use against its limit, the sizes of
 * the CommitLog and ConsumeQueue directories, and the transactions it holds. Sizes are read from
 * the file system when asked (a walk of the store's two directories). Thread-safe.
 */
public final class BrokerFactsReader {

    /** Where a store keeps its CommitLog segments and ConsumeQueue files, under its directory. */
    private static final String COMMIT_LOG = "commitlog", CONSUME_QUEUE = "consumequeue";

    /** What does not change while a broker runs. */
    public record Identity(String brokerName, long startedAt, double diskUseLimit) {
    }

    private final Identity identity;
    private final Supplier<String> address;
    private final MessageStore store;
    private final DestinationTable destinations;
    private final TransactionTable transactions;

    /** @param address the address clients connect to, known once the broker listens */
    public BrokerFactsReader(Identity identity, Supplier<String> address, MessageStore store,
                             DestinationTable destinations, TransactionTable transactions) {
        this.identity = identity;
        this.address = address;
        this.store = store;
        this.destinations = destinations;
        this.transactions = transactions;
    }

    public BrokerFacts read() {
        Path directory = store.config().directory();
        long total, usable;
        try {
            FileStore disk = Files.getFileStore(directory);
            total = disk.getTotalSpace();
            usable = disk.getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the disk of " + directory, e);
        }
        long now = System.currentTimeMillis();
        return new BrokerFacts(RamjetVersion.VERSION, identity.brokerName(), address.get(), identity.startedAt(),
                now - identity.startedAt(), total, usable, identity.diskUseLimit(),
                sizeOf(directory.resolve(COMMIT_LOG)), sizeOf(directory.resolve(CONSUME_QUEUE)), store.segmentCount(),
                destinations.list().size(), transactions.all().size(), transactions.preparedBranches().size(),
                store.maxPhysicalOffset() - store.minPhysicalOffset());
    }

    /** Bytes of the regular files under a directory; files deleted during the walk count as nothing. */
    static long sizeOf(Path directory) {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.mapToLong(BrokerFactsReader::sizeOrZero).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    private static long sizeOrZero(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
