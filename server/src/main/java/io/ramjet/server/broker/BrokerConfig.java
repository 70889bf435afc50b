package io.ramjet.server.broker;

import io.ramjet.server.broker.assembly.AssemblyConfig;
import io.ramjet.server.broker.replication.ControllerMode;
import io.ramjet.server.broker.idempotence.ProducerTableConfig;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.subscription.MessageGroupPolicy;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.config.NameServerSecret;
import io.ramjet.server.config.Hosts;
import io.ramjet.server.config.ConnectionLimits;
import io.ramjet.server.config.RemotingServerConfig;
import io.ramjet.server.config.TlsSettings;
import io.ramjet.storage.StoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a broker is told at start, as one immutable value, store settings included. Build it
 * with {@link #builder(Path)} or change a copy with {@link #toBuilder()}; {@link #defaults(Path)}
 * serves a laptop. The properties file and the launcher set it key by key through
 * {@code io.ramjet.server.standalone.BrokerKeys}, where every key is documented. Nothing reads
 * configuration from anywhere else.
 *
 * @param clusterName          cluster the broker registers under
 * @param brokerName           broker group name (master and slaves share it)
 * @param brokerId             0 for a master
 * @param host                 address to bind
 * @param advertisedHost       address to announce, or null for {@link #advertisedHost() the default}
 * @param port                 port to bind, 0 for an ephemeral one
 * @param advertisedPort       port to announce (of a port forward or proxy in front of the broker), 0 for
 *                             the bound one
 * @param nativeTransport      accept connections on the native epoll transport where it loads, else NIO
 * @param nameServers          NameServer addresses ("host:port") to register with
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
 * @param transactionMaxChecks     check-backs in a row that a connected owner leaves unanswered after which
 *                                 an unprepared transaction rolls back (an answer "still open" starts the
 *                                 count again; a prepared one keeps asking its coordinator)
 * @param queues               queues created at start, whatever {@code autoCreateDestinations} says
 * @param topics               topics created at start
 * @param usersFile            the users and their password hashes ({@code io.ramjet.server.broker.security.Users}),
 *                             or null for none: then no AUTHENTICATE succeeds
 * @param allowAnonymous       whether a connection may work without authenticating; false needs a users file
 *                             or a JAAS login
 * @param access               roles, permissions and the JAAS login, each optional
 * @param nameServerSecret     signs the broker's registrations with the NameServers, or null to send them
 *                             unsigned (accepted only by NameServers without a secret)
 * @param clusterUser          the user this broker authenticates as to the brokers it asks about transactions
 *                             they coordinate (Artemis's cluster-user), or null to ask anonymously
 * @param clusterPassword      that user's password (null for an empty one)
 * @param clusterSecret        what this broker proves to, and asks of, the other members of the cluster (its
 *                             slaves, its master, the coordinators it asks, the controllers), or null to use
 *                             one derived from {@code nameServerSecret} (see {@link #clusterIdentity()})
 * @param tls                  TLS on the broker's port and on its connections to NameServers and coordinators
 * @param metricsPort          HTTP port of the Prometheus scrape endpoint ({@code /metrics}) on {@code host},
 *                             0 for an ephemeral one, -1 for none
 * @param metricsJmx           publish the metrics through JMX too
 * @param metricsRequireLogin  {@code /metrics} asks for the console's login (HTTP Basic, the admin
 *                             right) instead of answering anyone; needs the broker's security on
 * @param messageGroups        how message groups (JMSXGroupID) are honoured on queues and shared subscriptions
 * @param replication          the broker's part in its group's CommitLog replication
 * @param controllerMode       whether that part comes from the controller group instead
 * @param producers            how long and how many idempotent producers the broker remembers
 * @param limits               connections the port accepts and the memory their frames may hold; the
 *                             limits before login apply when anonymous connections are refused
 * @param storeConfig          the store: data directory, segments, flushing, record limit
 */
public record BrokerConfig(
        String clusterName,
        String brokerName,
        long brokerId,
        String host,
        String advertisedHost,
        int port,
        int advertisedPort,
        boolean nativeTransport,
        List<String> nameServers,
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
        List<String> queues,
        List<String> topics,
        Path usersFile,
        boolean allowAnonymous,
        AccessConfig access,
        NameServerSecret nameServerSecret,
        String clusterUser,
        String clusterPassword,
        ClusterSecret clusterSecret,
        TlsSettings tls,
        int metricsPort,
        boolean metricsJmx,
        boolean metricsRequireLogin,
        MessageGroupPolicy messageGroups,
        ReplicationConfig replication,
        ControllerMode controllerMode,
        ProducerTableConfig producers,
        ConnectionLimits limits,
        StoreConfig storeConfig) implements AssemblyConfig {

    public static final int DEFAULT_PORT = 10911;

    /**
     * The secret that makes this broker a member of the cluster: {@code clusterSecret}, else one
     * derived from {@code nameServerSecret} (every broker registering with the same NameServers
     * holds it), else null: then this broker proves nothing and accepts no other broker as a
     * member (no replication, no transaction queries from other brokers but by {@code clusterUser}).
     */
    public ClusterSecret clusterIdentity() {
        if (clusterSecret != null) {
            return clusterSecret;
        }
        return nameServerSecret == null ? null : nameServerSecret.clusterSecret();
    }

    public BrokerConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(storeConfig, "storeConfig");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(messageGroups, "messageGroups");
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(controllerMode, "controllerMode");
        if (controllerMode.enabled() && (replication.slave() || replication.masterAddress() != null)) {
            throw new IllegalArgumentException("role and masterAddress come from the controllers when"
                    + " controllerAddresses is set: set one or the other");
        }
        Objects.requireNonNull(producers, "producers");
        Objects.requireNonNull(limits, "limits");
        nameServers = List.copyOf(nameServers);
        queues = List.copyOf(queues);
        topics = List.copyOf(topics);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " not in [0, 65535]");
        }
        if (advertisedPort < 0 || advertisedPort > 65535) {
            throw new IllegalArgumentException("advertisedPort " + advertisedPort + " not in [0, 65535]");
        }
        if (metricsPort < -1 || metricsPort > 65535) {
            throw new IllegalArgumentException("metricsPort " + metricsPort + " not in [0, 65535] (or -1 for none)");
        }
        if (metricsRequireLogin && usersFile == null && !access.usesJaas()) {
            throw new IllegalArgumentException("metricsRequireLogin needs the broker's security on (a usersFile or a"
                    + " jaasConfigFile): without a login there is nothing to ask");
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
        Objects.requireNonNull(access, "access");
        if (!allowAnonymous && usersFile == null && !access.usesJaas()) {
            throw new IllegalArgumentException("allowAnonymous=false needs a usersFile or a JAAS login: nobody could"
                    + " connect");
        }
    }

    /** Whether the broker keeps metrics (a scrape endpoint, JMX, or both). */
    public boolean metricsEnabled() {
        return metricsPort >= 0 || metricsJmx;
    }

    public static BrokerConfig defaults(Path dataDir) {
        return builder(dataDir).build();
    }

    /** The defaults (documented in {@code BrokerKeys}), to change before {@link BrokerConfigBuilder#build()}. */
    public static BrokerConfigBuilder builder(Path dataDir) {
        return new BrokerConfigBuilder(StoreConfig.builder(dataDir));
    }

    /** A builder holding this configuration. */
    public BrokerConfigBuilder toBuilder() {
        return new BrokerConfigBuilder(this, advertisedHost);
    }

    /**
     * The address the broker announces to the NameServers (clients connect to it): the configured
     * one, else the bind host unless that is a wildcard, else this machine's canonical host name.
     */
    @Override
    public String advertisedHost() {
        return Hosts.advertised(host, advertisedHost);
    }

    /** Where the CommitLog, ConsumeQueues, checkpoint and snapshots live: the store's directory. */
    public Path dataDir() {
        return storeConfig.directory();
    }

    public int segmentSize() {
        return storeConfig.segmentSize();
    }

    public long minFreeSpace() {
        return storeConfig.minFreeSpace();
    }

    /** The broker's listening socket: bound to {@link #host()}, announced as {@link #advertisedHost()}, TLS as configured. */
    public RemotingServerConfig remoting() {
        return RemotingServerConfig.onPort(port).withRole("broker").withHost(host).withAdvertisedHost(advertisedHost)
                .withAdvertisedPort(advertisedPort).withTls(tls.server()).withNativeTransport(nativeTransport)
                .withLimits(limits.withLoginRequired(!allowAnonymous));
    }

    /** The same configuration on another port, for tests that bind an ephemeral one. */
    public BrokerConfig withPort(int newPort) {
        return toBuilder().port(newPort).build();
    }

    public BrokerConfig withNameServers(List<String> addresses) {
        return toBuilder().nameServers(addresses).build();
    }

    public BrokerConfig withBrokerName(String name) {
        return toBuilder().brokerName(name).build();
    }

    public BrokerConfig withQueuesPerDestination(int count) {
        return toBuilder().queuesPerDestination(count).build();
    }

    public BrokerConfig withMaxDeliveries(int deliveries) {
        return toBuilder().maxDeliveries(deliveries).build();
    }

    public BrokerConfig withDiskUseLimit(double limit) {
        return toBuilder().diskUseLimit(limit).build();
    }

    /** Check-back timing: after how long, how often, and how many times before an open transaction rolls back. */
    public BrokerConfig withTransactionChecks(Duration checkAfter, Duration checkInterval, int maxChecks) {
        return toBuilder().transactionCheckAfter(checkAfter).transactionCheckInterval(checkInterval)
                .transactionMaxChecks(maxChecks).build();
    }

    public BrokerConfig withAutoCreateDestinations(boolean autoCreate) {
        return toBuilder().autoCreateDestinations(autoCreate).build();
    }

    /** Destinations created at start (an operator's configured addresses). */
    public BrokerConfig withDestinations(List<String> newQueues, List<String> newTopics) {
        return toBuilder().queues(newQueues).topics(newTopics).build();
    }

    /** Who may connect: the users file (null for none) and whether connections without credentials are admitted. */
    public BrokerConfig withSecurity(Path newUsersFile, boolean anonymous) {
        return toBuilder().usersFile(newUsersFile).allowAnonymous(anonymous).build();
    }

    /** Roles, permissions and the JAAS login. */
    public BrokerConfig withAccess(AccessConfig newAccess) {
        return toBuilder().rolesFile(newAccess.rolesFile()).permissionsFile(newAccess.permissionsFile())
                .jaasConfigFile(newAccess.jaasConfigFile()).jaasEntry(newAccess.jaasEntry())
                .anonymousRoles(List.copyOf(newAccess.anonymousRoles())).build();
    }

    /** The same configuration with another part in replication. */
    public BrokerConfig withReplication(ReplicationConfig newReplication) {
        return toBuilder().replication(newReplication).build();
    }
}
