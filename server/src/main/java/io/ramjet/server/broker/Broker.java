package io.ramjet.server.broker;

import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.admin.BrokerFactsReader;
import io.ramjet.server.broker.admin.Statistics;
import io.ramjet.server.broker.assembly.BrokerState;
import io.ramjet.server.broker.assembly.BrokerThreads;
import io.ramjet.server.broker.assembly.ClusterOverview;
import io.ramjet.server.broker.assembly.NameServerRegistration;
import io.ramjet.server.broker.assembly.Operations;
import io.ramjet.server.broker.assembly.ReplicationSide;
import io.ramjet.server.broker.assembly.RequestProcessors;
import io.ramjet.server.broker.delivery.DiscardCounts;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.durability.ConsumptionReplay;
import io.ramjet.server.broker.durability.ConsumptionSnapshotter;
import io.ramjet.server.broker.durability.SnapshotFile;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.server.broker.large.LargeMessages;
import io.ramjet.server.broker.large.OpenUploads;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.log.NonPersistentHorizon;
import io.ramjet.server.broker.processor.ProducingConnections;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.broker.replication.ReplicationControl;
import io.ramjet.server.broker.retention.RetentionScanner;
import io.ramjet.server.broker.security.Login;
import io.ramjet.server.broker.security.SecurityFiles;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.transaction.Transactions;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.ReplicationGate;
import io.ramjet.storage.StoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A broker: the message store in the data directory, the remoting server serving producers and
 * consumers, the subscriptions with their per-message state, the held pulls, the transactions
 * with their check-back, and the registration with the NameServers. Owns the order in which its
 * parts start and stop; which processor serves which command is {@link RequestProcessors}', the
 * replication {@link ReplicationSide}'s, the metrics and console {@link Operations}', and the
 * work is done by the processors, the delivery classes and the transaction package.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
    /** Segments are large and deleted whole: looking every ten seconds is plenty. */

    private final BrokerConfig config;
    private final StoreConfig storeConfig;
    private final BrokerState state;
    private final BrokerThreads threads = new BrokerThreads();
    private final RequestProcessors requests;
    private final ReplicationSide replication;
    private final NameServerRegistration registration;
    private final Operations operations;
    private long startedAt;
    /** Depths and backlogs, for the operator's commands and the metrics. */
    private Statistics statistics;
    private MessageStore store;
    private ConsumptionLog log;
    private RetentionScanner retention;
    private LargeMessages largeMessages;

    /** A broker whose store is laid out as {@link BrokerConfig#storeConfig()} says. */
    public Broker(BrokerConfig config) {
        this(config, config.storeConfig());
    }

    public Broker(BrokerConfig config, StoreConfig storeConfig) {
        this(config, storeConfig, ReplicationControl.LOCAL);
    }

    /** A broker whose master lease and in-sync set commits come from {@code control} (controller mode). */
    public Broker(BrokerConfig config, StoreConfig storeConfig, ReplicationControl control) {
        this.config = config;
        this.storeConfig = storeConfig;
        SubscriptionTable subscriptions = new SubscriptionTable(config.messageGroups().rebalanceOnJoin());
        HeldPulls heldPulls = new HeldPulls(threads.processors(), threads.timer());
        DelayedMessages delayed = new DelayedMessages(threads.timer());
        this.state = new BrokerState(
                new DestinationTable(config.autoCreateDestinations(), config.queuesPerDestination()), subscriptions,
                heldPulls, delayed, new DeliveryMarks(DeliveryMarks.DEFAULT_AHEAD, DeliveryMarks.DEFAULT_MAX_LEAD),
                new NonPersistentHorizon(config.dataDir().resolve("broker"), storeConfig.forceRecorder()),
                new LongAdder(), new DiscardCounts(), new ProducingConnections(),
                new Transactions(subscriptions, heldPulls, delayed), new ProducerTable(config.producers()),
                new OpenUploads());
        this.requests = new RequestProcessors(config, control, state, threads);
        this.replication = new ReplicationSide(config, storeConfig, control, threads);
        this.registration = new NameServerRegistration(config);
        this.operations = new Operations(config, state, threads);
    }

    private void loadHorizon() {
        try {
            state.horizon().load();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the NON_PERSISTENT horizon in " + config.dataDir(), e);
        }
    }

    /** After a crash the NON_PERSISTENT messages stored are not delivered (their acknowledgements were not logged). */
    private void raiseHorizon() {
        NonPersistentHorizon horizon = state.horizon();
        try {
            horizon.raiseTo(store.maxPhysicalOffset());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the NON_PERSISTENT horizon in " + config.dataDir(), e);
        }
        LOG.info("NON_PERSISTENT messages stored before offset {} (before the crash) will not be delivered",
                horizon.horizon());
    }

    /**
     * Opens the store, binds the port and registers with the NameServers.
     *
     * @throws NetworkException if the broker cannot listen on its port
     */
    public synchronized void start() throws NetworkException {
        if (store != null) {
            throw new IllegalStateException("already started");
        }
        startedAt = System.currentTimeMillis();
        ConsumptionSnapshotter snapshotter = new ConsumptionSnapshotter(
                new SnapshotFile(config.dataDir().resolve("broker"), storeConfig.forceRecorder()), state.destinations(),
                state.subscriptions(), state.delayed(), state.marks(), state.transactions().table(), state.producers());
        ReplicationConfig replicationConfig = config.replication();
        replication.open();
        openStore(snapshotter, replicationConfig.slave());
        log = new ConsumptionLog(store);
        deleteQueuesOfUnknownDestinations();
        try {
            requests.openServer();
            statistics = new Statistics(store, state.destinations(), state.subscriptions(), state.delayed());
            operations.startMetrics(requests.server(), statistics, store);
            Login login = SecurityFiles.login(config.usersFile(), config.access());
            requests.registerAuthentication(login);
            if (replicationConfig.slave()) {
                requests.registerSlave(store, replication::masterAddress);
            } else {
                registerMaster(login);
            }
            requests.listen();
            replication.start(requests.server(), store, requests.members());
            retention = new RetentionScanner(store, state.destinations(), state.subscriptions(), state.delayed(),
                    state.transactions().table(), largeMessages, state.uploads());
            long retentionMillis = config.storeConfig().retentionInterval().toMillis();
            threads.timer().scheduleWithFixedDelay(retention, retentionMillis, retentionMillis, TimeUnit.MILLISECONDS);
            if (!replicationConfig.slave()) {
                registration.start(this::address, state.destinations(), () -> replication.epochs().lastEpoch());
            }
        } catch (NetworkException | RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("broker {} listening on {} with data in {}", config.brokerName(), address(), config.dataDir());
    }

    /**
     * Recovers the in-memory state from the snapshot and the log as the store opens; a master then
     * leaves replay, applies what a crash leaves to do, and begins its epoch.
     */
    private void openStore(ConsumptionSnapshotter snapshotter, boolean slave) {
        ReplicationConfig replicationConfig = config.replication();
        loadHorizon();
        long snapshotPosition = snapshotter.load();
        ConsumptionReplay replay = new ConsumptionReplay(state.destinations(), state.subscriptions(), state.marks(),
                snapshotPosition);
        state.transactions().replayFrom(snapshotPosition);
        store = MessageStore.open(storeConfig, new BrokerDispatchListener(state.heldPulls(), replay,
                snapshotter, state.delayed(), state.transactions().dispatch(), state.producers()),
                slave ? ReplicationGate.NONE : replication.inSync());
        largeMessages = new LargeMessages(store);
        boolean wasSlave = ReplicaMarker.wasSlave(config.dataDir(), slave);
        if (!slave) {
            // a slave stays in replay: it applies every record as recovery does, and starts nothing that writes
            replay.finish();
            if (!store.recoveryReport().cleanShutdown() || wasSlave) {
                state.marks().applyAfterCrash(state.subscriptions(), store);
                raiseHorizon();
            }
            state.marks().start(store);
            state.delayed().start(store);
            replication.epochs().begin(replicationConfig.masterEpoch() > 0 ? replicationConfig.masterEpoch()
                    : replication.epochs().lastEpoch() + 1, store.maxPhysicalOffset());
        }
    }

    /** A master's client commands, then the operator's commands and the console, which use them. */
    private void registerMaster(Login login) {
        RequestProcessors.ClientCommands clients = requests.registerMaster(login, store, log, largeMessages,
                operations.metrics(), this::destinationCreated, registration::announceDestinations);
        BrokerFactsReader facts = new BrokerFactsReader(new BrokerFactsReader.Identity(config.brokerName(),
                startedAt, config.diskUseLimit()), this::address, store, state.destinations(),
                state.transactions().table());
        operations.register(requests.server(), store, log, statistics, clients, facts,
                () -> new ClusterOverview(config, this::address, () -> replication.epochs().lastEpoch(),
                        () -> store.maxPhysicalOffset(), replication.inSync(), registration::nameServers));
    }

    /**
     * Deletes the ConsumeQueues of destinations the broker does not have: temporary ones whose
     * connection ended with the previous run (they are never logged), or whose deletion a crash
     * interrupted.
     */
    private void deleteQueuesOfUnknownDestinations() {
        java.util.Set<String> known = new java.util.HashSet<>();
        state.destinations().list().forEach(d -> known.add(d.storageName()));
        for (String storageName : store.queueDestinations()) {
            if (!known.contains(storageName)) {
                LOG.info("deleting the ConsumeQueues of {}: no such destination on this broker", storageName);
                store.deleteQueues(storageName).join();
            }
        }
    }

    /**
     * A slave follows the master at {@code masterAddress} without closing: it handshakes with it
     * and fetches from it if its log is a prefix of that master's ({@code ReplicationSide.follow}).
     *
     * @return false if it did not (a master, a log to truncate, a master that stayed unreachable
     * for {@code patience}); the caller then closes it and opens a broker in the new role
     */
    public synchronized boolean followMaster(String masterAddress, Duration patience) {
        if (store == null || !config.replication().slave()) {
            return false;
        }
        try {
            return replication.follow(masterAddress, store, patience);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (IllegalStateException e) {
            LOG.warn("slave {}/{} could not follow {} without reopening: {}", config.brokerName(), config.brokerId(),
                    masterAddress, e.getMessage());
            return false;
        }
    }

    /** Logs a destination created on first use (before the message that created it) and announces it. */
    private void destinationCreated(Destination destination) {
        log.destinationCreatedOnUse(destination);
        registration.announceDestinations();
    }

    /**
     * How many CommitLog records pulls have read since start: with tag filtering, about the
     * matching messages plus false positives, not every message of the queue.
     */
    public long recordsReadForDelivery() {
        return state.recordsReadForDelivery().sum();
    }

    public BrokerConfig config() {
        return config;
    }

    /** The bound port, the chosen one when configured with port 0. */
    public int port() {
        return requests.server().port();
    }

    /** {@code host:port} clients connect to. */
    public String address() {
        return requests.server().address();
    }

    /** The slaves in this master's in-sync set now, by broker id (empty on a slave): for a controller to commit. */
    public java.util.Set<Long> inSyncReplicas() {
        return replication.inSyncReplicas();
    }

    /** This broker's epoch history (epoch and first CommitLog offset), oldest first. */
    public java.util.List<io.ramjet.model.EpochEntry> epochs() {
        return replication.epochEntries();
    }

    /** Bytes a slave has written from its master since start; 0 on a master. */
    public long bytesReplicated() {
        return replication.bytesReplicated();
    }

    /** For a slave, whether its master answered its last fetch; true for a master. */
    public boolean masterReachable() {
        return replication.masterReachable();
    }

    /** How many transactions the broker holds (open or prepared), for tests and monitoring. */
    public int transactionCount() {
        return state.transactions().table().all().size();
    }

    /** How many pulls the broker holds now, for tests and monitoring. */
    public int heldPullCount() {
        return state.heldPulls().heldCount();
    }

    /** How many client and cluster connections the broker has open now, for tests and monitoring. */
    public int connectionCount() {
        return requests.connectionCount();
    }

    /** The bound port of the Prometheus scrape endpoint, -1 when there is none. */
    public int metricsPort() {
        return operations.metricsPort();
    }

    /** Runs a retention scan now, for tests. */
    public void runRetention() {
        retention.run();
    }

    /** The idempotent producers this broker remembers. */
    public ProducerTable producers() {
        return state.producers();
    }

    /** The store, for tests and the embedded broker. */
    public MessageStore store() {
        return store;
    }

    /** Unregisters, stops serving, answers held pulls and closes the store cleanly (checkpoint). */
    @Override
    public synchronized void close() {
        registration.close();
        replication.close();
        state.heldPulls().expireAll();
        // before the server: connections closing because the broker stops roll nothing back
        state.transactions().close();
        requests.closeCoordinators();
        requests.closeServer();
        operations.close();
        threads.stopTimerAndLogins();
        requests.closeSendLane();
        threads.shutdown();
        if (store != null) {
            state.transactions().releaseHolds();
            store.close();
        }
    }
}
