package io.ramjet.server.broker;

import io.ramjet.controller.ControllerTls;
import io.ramjet.server.broker.replication.ControllerMode;
import io.ramjet.server.broker.idempotence.ProducerTableConfig;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.subscription.MessageGroupPolicy;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.config.NameServerSecret;
import io.ramjet.server.config.ConnectionLimits;
import io.ramjet.server.config.TlsSettings;
import io.ramjet.storage.StoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Collects a {@link BrokerConfig} key by key; {@link #build()} checks the whole. Not thread-safe. */
public final class BrokerConfigBuilder {
    private final StoreConfig.Builder store;
    private String clusterName = "DefaultCluster";
    private String brokerName = "broker-a";
    private long brokerId;
    private String host = "127.0.0.1";
    private String advertisedHost;
    private int port = BrokerConfig.DEFAULT_PORT;
    private int advertisedPort;
    private boolean nativeTransport = true;
    private List<String> nameServers = List.of("127.0.0.1:9876");
    private boolean autoCreateDestinations = true;
    private int queuesPerDestination = 4;
    private int maxDeliveries = 10;
    private String deadLetterPrefix = "DLQ.";
    private Duration heartbeatInterval = Duration.ofSeconds(30);
    private double diskUseLimit = 0.95;
    private Duration diskFullBlock = Duration.ZERO;
    private Duration transactionCheckAfter = Duration.ofSeconds(6);
    private Duration transactionCheckInterval = Duration.ofSeconds(5);
    private int transactionMaxChecks = 15;
    private List<String> queues = List.of();
    private List<String> topics = List.of();
    private Path usersFile;
    private boolean allowAnonymous = true;
    private Path rolesFile;
    private Path permissionsFile;
    private Path jaasConfigFile;
    private String jaasEntry = AccessConfig.DEFAULT_JAAS_ENTRY;
    private List<String> anonymousRoles = List.of();
    private NameServerSecret nameServerSecret;
    private String clusterUser;
    private String clusterPassword;
    private ClusterSecret clusterSecret;
    private TlsSettings.Builder tls = TlsSettings.builder();
    private int metricsPort = -1;
    private boolean metricsJmx;
    private boolean metricsRequireLogin;
    private boolean messageGroups = MessageGroupPolicy.DEFAULT.enabled();
    private Duration groupIdleTimeout = MessageGroupPolicy.DEFAULT.idleTimeout();
    private boolean groupRebalanceOnJoin = MessageGroupPolicy.DEFAULT.rebalanceOnJoin();
    private ReplicationConfig.Role role = ReplicationConfig.DEFAULT.role();
    private String masterAddress;
    private ReplicationConfig.Mode replicationMode = ReplicationConfig.DEFAULT.mode();
    private int minInSyncReplicas = ReplicationConfig.DEFAULT.minInSyncReplicas();
    private Duration replicaMaxLag = ReplicationConfig.DEFAULT.maxLag();
    private Duration replicaSyncTimeout = ReplicationConfig.DEFAULT.syncTimeout();
    private int masterEpoch;
    private String controllerAddresses = ControllerMode.OFF.addresses();
    private Duration controllerHeartbeat = ControllerMode.OFF.heartbeatInterval();
    private Duration controllerTimeout = ControllerMode.OFF.brokerTimeout();
    private Duration controllerRegisterPatience = ControllerMode.OFF.registerPatience();
    private Path controllerTlsCertificate;
    private Path controllerTlsPrivateKey;
    private Path controllerTlsTrustStore;
    private Duration producerIdleExpiry = ProducerTableConfig.DEFAULT.idleExpiry();
    private int producerTableMax = ProducerTableConfig.DEFAULT.maxProducers();
    private int maxConnections = ConnectionLimits.DEFAULT.maxConnections();
    private int maxConnectionsPerAddress = ConnectionLimits.DEFAULT.maxPerAddress();
    private int maxUnauthenticatedConnections = ConnectionLimits.DEFAULT.maxUnauthenticated();
    private int maxFrameLengthBeforeLogin = ConnectionLimits.DEFAULT.frameLengthBeforeLogin();
    private long frameMemoryLimit = ConnectionLimits.DEFAULT.frameMemory();
    private long frameMemoryPerUser = ConnectionLimits.DEFAULT.frameMemoryPerOwner();

    BrokerConfigBuilder(StoreConfig.Builder store) {
        this.store = store;
    }

    /**
     * A builder holding {@code config}, with the advertised host as configured (null for the default):
     * {@link BrokerConfig#advertisedHost()} answers the default itself.
     */
    BrokerConfigBuilder(BrokerConfig config, String configuredAdvertisedHost) {
        this(config.storeConfig().toBuilder());
        this.clusterName = config.clusterName();
        this.brokerName = config.brokerName();
        this.brokerId = config.brokerId();
        this.host = config.host();
        this.advertisedHost = configuredAdvertisedHost;
        this.port = config.port();
        this.advertisedPort = config.advertisedPort();
        this.nativeTransport = config.nativeTransport();
        this.nameServers = config.nameServers();
        this.autoCreateDestinations = config.autoCreateDestinations();
        this.queuesPerDestination = config.queuesPerDestination();
        this.maxDeliveries = config.maxDeliveries();
        this.deadLetterPrefix = config.deadLetterPrefix();
        this.heartbeatInterval = config.heartbeatInterval();
        this.diskUseLimit = config.diskUseLimit();
        this.diskFullBlock = config.diskFullBlock();
        this.transactionCheckAfter = config.transactionCheckAfter();
        this.transactionCheckInterval = config.transactionCheckInterval();
        this.transactionMaxChecks = config.transactionMaxChecks();
        this.metricsPort = config.metricsPort();
        this.metricsJmx = config.metricsJmx();
        this.metricsRequireLogin = config.metricsRequireLogin();
        this.queues = config.queues();
        this.topics = config.topics();
        this.usersFile = config.usersFile();
        this.allowAnonymous = config.allowAnonymous();
        this.rolesFile = config.access().rolesFile();
        this.permissionsFile = config.access().permissionsFile();
        this.jaasConfigFile = config.access().jaasConfigFile();
        this.jaasEntry = config.access().jaasEntry();
        this.anonymousRoles = List.copyOf(config.access().anonymousRoles());
        this.nameServerSecret = config.nameServerSecret();
        this.clusterUser = config.clusterUser();
        this.clusterPassword = config.clusterPassword();
        this.clusterSecret = config.clusterSecret();
        this.tls = config.tls().toBuilder();
        this.messageGroups = config.messageGroups().enabled();
        this.groupIdleTimeout = config.messageGroups().idleTimeout();
        this.groupRebalanceOnJoin = config.messageGroups().rebalanceOnJoin();
        replication(config.replication());
        controllerMode(config.controllerMode());
        this.producerIdleExpiry = config.producers().idleExpiry();
        this.producerTableMax = config.producers().maxProducers();
        this.maxConnections = config.limits().maxConnections();
        this.maxConnectionsPerAddress = config.limits().maxPerAddress();
        this.maxUnauthenticatedConnections = config.limits().maxUnauthenticated();
        this.maxFrameLengthBeforeLogin = config.limits().frameLengthBeforeLogin();
        this.frameMemoryLimit = config.limits().frameMemory();
        this.frameMemoryPerUser = config.limits().frameMemoryPerOwner();
    }

    /** The TLS settings, built with the broker's. */
    public TlsSettings.Builder tls() {
        return tls;
    }

    /** The store's settings, built with the broker's. */
    public StoreConfig.Builder store() {
        return store;
    }

    public BrokerConfigBuilder dataDir(Path dir) {
        store.directory(dir);
        return this;
    }

    public BrokerConfigBuilder clusterName(String name) {
        this.clusterName = name;
        return this;
    }

    public BrokerConfigBuilder brokerName(String name) {
        this.brokerName = name;
        return this;
    }

    public BrokerConfigBuilder brokerId(long id) {
        this.brokerId = id;
        return this;
    }

    public BrokerConfigBuilder host(String bindHost) {
        this.host = bindHost;
        return this;
    }

    /** Null announces the default of {@link BrokerConfig#advertisedHost()}. */
    public BrokerConfigBuilder advertisedHost(String announced) {
        this.advertisedHost = announced;
        return this;
    }

    public BrokerConfigBuilder port(int bindPort) {
        this.port = bindPort;
        return this;
    }

    /** 0 announces the bound port. */
    public BrokerConfigBuilder advertisedPort(int announced) {
        this.advertisedPort = announced;
        return this;
    }

    /** False keeps the broker's port on NIO even where the native epoll transport would load. */
    public BrokerConfigBuilder nativeTransport(boolean allowed) {
        this.nativeTransport = allowed;
        return this;
    }

    public BrokerConfigBuilder nameServers(List<String> addresses) {
        this.nameServers = addresses;
        return this;
    }

    public BrokerConfigBuilder autoCreateDestinations(boolean autoCreate) {
        this.autoCreateDestinations = autoCreate;
        return this;
    }

    public BrokerConfigBuilder queuesPerDestination(int count) {
        this.queuesPerDestination = count;
        return this;
    }

    public BrokerConfigBuilder maxDeliveries(int deliveries) {
        this.maxDeliveries = deliveries;
        return this;
    }

    public BrokerConfigBuilder deadLetterPrefix(String prefix) {
        this.deadLetterPrefix = prefix;
        return this;
    }

    public BrokerConfigBuilder heartbeatInterval(Duration interval) {
        this.heartbeatInterval = interval;
        return this;
    }

    public BrokerConfigBuilder diskUseLimit(double limit) {
        this.diskUseLimit = limit;
        return this;
    }

    public BrokerConfigBuilder diskFullBlock(Duration block) {
        this.diskFullBlock = block;
        return this;
    }

    public BrokerConfigBuilder transactionCheckAfter(Duration age) {
        this.transactionCheckAfter = age;
        return this;
    }

    public BrokerConfigBuilder transactionCheckInterval(Duration interval) {
        this.transactionCheckInterval = interval;
        return this;
    }

    public BrokerConfigBuilder transactionMaxChecks(int checks) {
        this.transactionMaxChecks = checks;
        return this;
    }

    public BrokerConfigBuilder queues(List<String> names) {
        this.queues = names;
        return this;
    }

    public BrokerConfigBuilder topics(List<String> names) {
        this.topics = names;
        return this;
    }

    public BrokerConfigBuilder usersFile(Path file) {
        this.usersFile = file;
        return this;
    }

    public BrokerConfigBuilder allowAnonymous(boolean anonymous) {
        this.allowAnonymous = anonymous;
        return this;
    }

    public BrokerConfigBuilder rolesFile(Path file) {
        this.rolesFile = file;
        return this;
    }

    public BrokerConfigBuilder permissionsFile(Path file) {
        this.permissionsFile = file;
        return this;
    }

    public BrokerConfigBuilder jaasConfigFile(Path file) {
        this.jaasConfigFile = file;
        return this;
    }

    public BrokerConfigBuilder jaasEntry(String entry) {
        this.jaasEntry = entry;
        return this;
    }

    public BrokerConfigBuilder anonymousRoles(List<String> roles) {
        this.anonymousRoles = roles;
        return this;
    }

    public BrokerConfigBuilder nameServerSecret(NameServerSecret secret) {
        this.nameServerSecret = secret;
        return this;
    }

    public BrokerConfigBuilder clusterUser(String user) {
        this.clusterUser = user;
        return this;
    }

    public BrokerConfigBuilder clusterPassword(String password) {
        this.clusterPassword = password;
        return this;
    }

    public BrokerConfigBuilder clusterSecret(ClusterSecret secret) {
        this.clusterSecret = secret;
        return this;
    }

    public BrokerConfigBuilder metricsPort(int port) {
        this.metricsPort = port;
        return this;
    }

    public BrokerConfigBuilder metricsJmx(boolean jmx) {
        this.metricsJmx = jmx;
        return this;
    }

    public BrokerConfigBuilder metricsRequireLogin(boolean require) {
        this.metricsRequireLogin = require;
        return this;
    }

    public BrokerConfigBuilder messageGroups(boolean enabled) {
        this.messageGroups = enabled;
        return this;
    }

    public BrokerConfigBuilder groupIdleTimeout(Duration timeout) {
        this.groupIdleTimeout = timeout;
        return this;
    }

    public BrokerConfigBuilder groupRebalanceOnJoin(boolean rebalance) {
        this.groupRebalanceOnJoin = rebalance;
        return this;
    }

    public BrokerConfigBuilder replication(ReplicationConfig settings) {
        role = settings.role();
        masterAddress = settings.masterAddress();
        replicationMode = settings.mode();
        minInSyncReplicas = settings.minInSyncReplicas();
        replicaMaxLag = settings.maxLag();
        replicaSyncTimeout = settings.syncTimeout();
        masterEpoch = settings.masterEpoch();
        return this;
    }

    public BrokerConfigBuilder role(ReplicationConfig.Role newRole) {
        this.role = newRole;
        return this;
    }

    public BrokerConfigBuilder masterAddress(String address) {
        this.masterAddress = address;
        return this;
    }

    public BrokerConfigBuilder replicationMode(ReplicationConfig.Mode mode) {
        this.replicationMode = mode;
        return this;
    }

    public BrokerConfigBuilder minInSyncReplicas(int replicas) {
        this.minInSyncReplicas = replicas;
        return this;
    }

    public BrokerConfigBuilder replicaMaxLag(Duration lag) {
        this.replicaMaxLag = lag;
        return this;
    }

    public BrokerConfigBuilder replicaSyncTimeout(Duration timeout) {
        this.replicaSyncTimeout = timeout;
        return this;
    }

    public BrokerConfigBuilder masterEpoch(int epoch) {
        this.masterEpoch = epoch;
        return this;
    }

    public BrokerConfigBuilder controllerMode(ControllerMode mode) {
        controllerAddresses = mode.addresses();
        controllerHeartbeat = mode.heartbeatInterval();
        controllerTimeout = mode.brokerTimeout();
        controllerRegisterPatience = mode.registerPatience();
        controllerTlsCertificate = mode.tls() == null ? null : mode.tls().certificateChain();
        controllerTlsPrivateKey = mode.tls() == null ? null : mode.tls().privateKey();
        controllerTlsTrustStore = mode.tls() == null ? null : mode.tls().trusted();
        return this;
    }

    public BrokerConfigBuilder controllerTlsCertificate(Path chain) {
        this.controllerTlsCertificate = chain;
        return this;
    }

    public BrokerConfigBuilder controllerTlsPrivateKey(Path key) {
        this.controllerTlsPrivateKey = key;
        return this;
    }

    public BrokerConfigBuilder controllerTlsTrustStore(Path trusted) {
        this.controllerTlsTrustStore = trusted;
        return this;
    }

    public BrokerConfigBuilder controllerAddresses(String peers) {
        this.controllerAddresses = peers;
        return this;
    }

    public BrokerConfigBuilder controllerHeartbeat(Duration interval) {
        this.controllerHeartbeat = interval;
        return this;
    }

    public BrokerConfigBuilder controllerTimeout(Duration timeout) {
        this.controllerTimeout = timeout;
        return this;
    }

    public BrokerConfigBuilder controllerRegisterPatience(Duration patience) {
        this.controllerRegisterPatience = patience;
        return this;
    }

    public BrokerConfigBuilder producerIdleExpiry(Duration expiry) {
        this.producerIdleExpiry = expiry;
        return this;
    }

    public BrokerConfigBuilder producerTableMax(int producers) {
        this.producerTableMax = producers;
        return this;
    }

    public BrokerConfigBuilder maxConnections(int connections) {
        this.maxConnections = connections;
        return this;
    }

    public BrokerConfigBuilder maxConnectionsPerAddress(int connections) {
        this.maxConnectionsPerAddress = connections;
        return this;
    }

    public BrokerConfigBuilder maxUnauthenticatedConnections(int connections) {
        this.maxUnauthenticatedConnections = connections;
        return this;
    }

    public BrokerConfigBuilder maxFrameLengthBeforeLogin(int bytes) {
        this.maxFrameLengthBeforeLogin = bytes;
        return this;
    }

    public BrokerConfigBuilder frameMemoryLimit(long bytes) {
        this.frameMemoryLimit = bytes;
        return this;
    }

    public BrokerConfigBuilder frameMemoryPerUser(long bytes) {
        this.frameMemoryPerUser = bytes;
        return this;
    }

    /** @throws IllegalArgumentException naming the setting that is out of range */
    public BrokerConfig build() {
        return new BrokerConfig(clusterName, brokerName, brokerId, host, advertisedHost, port, advertisedPort,
                nativeTransport, nameServers,
                autoCreateDestinations, queuesPerDestination, maxDeliveries, deadLetterPrefix, heartbeatInterval,
                diskUseLimit, diskFullBlock, transactionCheckAfter, transactionCheckInterval, transactionMaxChecks,
                queues, topics, usersFile, allowAnonymous,
                new AccessConfig(rolesFile, permissionsFile, jaasConfigFile, jaasEntry,
                        Set.copyOf(anonymousRoles)), nameServerSecret, clusterUser, clusterPassword, clusterSecret,
                tls.build(), metricsPort, metricsJmx, metricsRequireLogin,
                new MessageGroupPolicy(messageGroups, groupIdleTimeout, groupRebalanceOnJoin),
                new ReplicationConfig(role, masterAddress, replicationMode, minInSyncReplicas, replicaMaxLag,
                        replicaSyncTimeout, masterEpoch),
                new ControllerMode(controllerAddresses, controllerHeartbeat, controllerTimeout,
                        controllerRegisterPatience, ControllerTls.of(controllerTlsCertificate, controllerTlsPrivateKey,
                        controllerTlsTrustStore, "controllerTlsCertificate", "controllerTlsPrivateKey",
                        "controllerTlsTrustStore")),
                new ProducerTableConfig(producerIdleExpiry, producerTableMax),
                new ConnectionLimits(maxConnections, maxConnectionsPerAddress, maxUnauthenticatedConnections,
                        maxFrameLengthBeforeLogin, frameMemoryLimit, frameMemoryPerUser, false),
                store.build());
    }
}
