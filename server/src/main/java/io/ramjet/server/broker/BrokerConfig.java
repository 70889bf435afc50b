package io.ramjet.server.broker;

import io.ramjet.protocol.remoting.NameServerSecret;
import io.ramjet.storage.StoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a broker is told at start, as one immutable value. {@link #defaults(Path)} serves a
 * laptop; tests shorten the intervals. Nothing reads configuration from anywhere else.
 *
 * @param clusterName          cluster the broker registers under
 * @param brokerName           broker group name (master and slaves share it)
 * @param brokerId             0 for a master
 * @param host                 address to bind and announce
 * @param port                 port to bind, 0 for an ephemeral one
 * @param nameServers          NameServer addresses ("host:port") to register with
 * @param dataDir              where the CommitLog, ConsumeQueues and checkpoint live
 * @param autoCreateDestinations create a destination on first use
 * @param queuesPerDestination message queues a new destination gets
 * @param maxDeliveries        deliveries after which a message goes to the dead-letter queue
 * @param deadLetterPrefix     dead-letter queue of destination D is queue prefix + D
 * @param heartbeatInterval    how often the broker re-registers with the NameServers
 * @param diskUseLimit         fraction of the disk above which sends are refused
 * @param diskFullBlock        how long a send waits for room past the limit before it is refused;
 *                             zero refuses at once (Artemis's FAIL policy), more blocks like its BLOCK
 * @param transactionCheckAfter    age of a transaction's half records (or prepared vote) after which the
 *                                 broker asks its owner, or its coordinator, for its state
 * @param transactionCheckInterval how often the broker looks for transactions to check back
 * @param transactionMaxChecks     check-backs answered "still open" after which an unprepared transaction
 *                                 rolls back (a prepared one keeps asking its coordinator)
 * @param segmentSize          bytes per CommitLog segment file
 * @param minFreeSpace         usable disk bytes a new CommitLog segment for messages must leave; control
 *                             records (acknowledgements) and ConsumeQueue files may use three quarters of it
 * @param queues               queues created at start, whatever {@code autoCreateDestinations} says
 * @param topics               topics created at start
 * @param usersFile            the users and their password hashes ({@code io.ramjet.server.broker.security.Users}),
 *                             or null for none: then no AUTHENTICATE succeeds
 * @param allowAnonymous       whether a connection may work without authenticating; false needs a users file
 * @param nameServerSecret     signs the broker's registrations with the NameServers, or null to send them
 *                             unsigned (accepted only by NameServers without a secret)
 */
public record BrokerConfig(
        String clusterName,
        String brokerName,
        long brokerId,
        String host,
        int port,
        List<String> nameServers,
        Path dataDir,
        boolean autoCreateDestinations,
        int queuesPerDestination,
        int maxDeliveries,
        String deadLetterPrefix,
        Duration heartbeatInterval,
        double diskUseLimit,
        Duration diskFullBlock,
        Duration transactionCheckAfter,
        Duration transactionCheckInterval,
        int transactionMaxChecks,
        int segmentSize,
        long minFreeSpace,
        List<String> queues,
        List<String> topics,
        Path usersFile,
        boolean allowAnonymous,
        NameServerSecret nameServerSecret) {

    public static final int DEFAULT_PORT = 10911;

    public BrokerConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        nameServers = List.copyOf(nameServers);
        queues = List.copyOf(queues);
        topics = List.copyOf(topics);
        if (segmentSize < 4096) {
            throw new IllegalArgumentException("segmentSize must be at least 4096 bytes");
        }
        if (minFreeSpace < 0) {
            throw new IllegalArgumentException("minFreeSpace must not be negative");
        }
        if (queuesPerDestination < 1) {
            throw new IllegalArgumentException("queuesPerDestination must be positive");
        }
        if (maxDeliveries < 1) {
            throw new IllegalArgumentException("maxDeliveries must be positive");
        }
        if (diskUseLimit <= 0 || diskUseLimit > 1) {
            throw new IllegalArgumentException("diskUseLimit must be in (0, 1]");
        }
        if (diskFullBlock == null || diskFullBlock.isNegative()) {
            throw new IllegalArgumentException("diskFullBlock must be zero or positive");
        }
        if (transactionCheckAfter == null || transactionCheckAfter.isNegative()) {
            throw new IllegalArgumentException("transactionCheckAfter must be zero or positive");
        }
        if (transactionCheckInterval == null || transactionCheckInterval.isNegative()
                || transactionCheckInterval.isZero()) {
            throw new IllegalArgumentException("transactionCheckInterval must be positive");
        }
        if (transactionMaxChecks < 1) {
            throw new IllegalArgumentException("transactionMaxChecks must be positive");
        }
        if (!allowAnonymous && usersFile == null) {
            throw new IllegalArgumentException("allowAnonymous=false needs a usersFile: nobody could connect");
        }
    }

    public static BrokerConfig defaults(Path dataDir) {
        return new BrokerConfig("DefaultCluster", "broker-a", 0, "127.0.0.1", DEFAULT_PORT, List.of("127.0.0.1:9876"),
                dataDir, true, 4, 10, "DLQ.", Duration.ofSeconds(30), 0.95,
                Duration.ZERO, Duration.ofSeconds(6), Duration.ofSeconds(5), 15, StoreConfig.DEFAULT_SEGMENT_SIZE,
                StoreConfig.DEFAULT_MIN_FREE_SPACE, List.of(), List.of(), null, true, null);
    }

    /** The same configuration on another port, for tests that bind an ephemeral one. */
    public BrokerConfig withPort(int newPort) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, newPort, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withNameServers(List<String> addresses) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, addresses, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withBrokerName(String name) {
        return new BrokerConfig(clusterName, name, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withDataDir(Path dir) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withQueuesPerDestination(int count) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, count, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withMaxDeliveries(int deliveries) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, deliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withDiskUseLimit(double limit) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, limit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withHeartbeatInterval(Duration interval) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                interval, diskUseLimit, diskFullBlock, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withDiskFullBlock(Duration block) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, block, transactionCheckAfter,
                transactionCheckInterval, transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withHost(String newHost) {
        return new BrokerConfig(clusterName, brokerName, brokerId, newHost, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter, transactionCheckInterval,
                transactionMaxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    /** Check-back timing: after how long, how often, and how many times before an open transaction rolls back. */
    public BrokerConfig withTransactionChecks(Duration checkAfter, Duration checkInterval, int maxChecks) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, checkAfter, checkInterval, maxChecks,
                segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    public BrokerConfig withAutoCreateDestinations(boolean autoCreate) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreate, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter, transactionCheckInterval,
                transactionMaxChecks, segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    /** CommitLog segment size and the free space new message segments must leave. */
    public BrokerConfig withStorage(int newSegmentSize, long newMinFreeSpace) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter, transactionCheckInterval,
                transactionMaxChecks, newSegmentSize, newMinFreeSpace, queues, topics, usersFile, allowAnonymous, nameServerSecret);
    }

    /** Destinations created at start (an operator's configured addresses). */
    public BrokerConfig withDestinations(List<String> newQueues, List<String> newTopics) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter, transactionCheckInterval,
                transactionMaxChecks, segmentSize, minFreeSpace, newQueues, newTopics, usersFile, allowAnonymous, nameServerSecret);
    }

    /** Who may connect: the users file (null for none) and whether connections without credentials are admitted. */
    public BrokerConfig withSecurity(Path newUsersFile, boolean anonymous) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter, transactionCheckInterval,
                transactionMaxChecks, segmentSize, minFreeSpace, queues, topics, newUsersFile, anonymous, nameServerSecret);
    }

    /** The secret the broker proves to the NameServers; null for none. */
    public BrokerConfig withNameServerSecret(NameServerSecret secret) {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, port, nameServers, dataDir,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix,
                heartbeatInterval, diskUseLimit, diskFullBlock, transactionCheckAfter, transactionCheckInterval,
                transactionMaxChecks, segmentSize, minFreeSpace, queues, topics, usersFile, allowAnonymous, secret);
    }

    /** The store settings this configuration asks for, on top of the store's defaults. */
    public StoreConfig storeConfig() {
        return StoreConfig.defaults(dataDir).withSegmentSize(segmentSize).withMinFreeSpace(minFreeSpace);
    }
}
