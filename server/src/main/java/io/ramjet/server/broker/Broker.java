package io.ramjet.server.broker;

import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.server.broker.admin.BrokerFactsReader;
import io.ramjet.server.broker.admin.MessageMover;
import io.ramjet.server.broker.admin.Purge;
import io.ramjet.server.broker.admin.QueueSubscriptions;
import io.ramjet.server.broker.admin.Statistics;
import io.ramjet.server.broker.admin.TransactionListing;
import io.ramjet.server.broker.console.Actions;
import io.ramjet.server.broker.console.Console;
import io.ramjet.server.broker.console.ConsoleGate;
import io.ramjet.server.broker.console.Listings;
import io.ramjet.server.broker.console.MessagePages;
import io.ramjet.server.broker.delivery.Acknowledgements;
import io.ramjet.server.broker.delivery.DeadLetterQueue;
import io.ramjet.server.broker.delivery.DiscardCounts;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.delivery.MessageFetcher;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.durability.ConsumptionReplay;
import io.ramjet.server.broker.durability.ConsumptionSnapshotter;
import io.ramjet.server.broker.durability.SnapshotFile;
import io.ramjet.server.broker.console.Actions;
import io.ramjet.server.broker.console.Console;
import io.ramjet.server.broker.console.ConsoleGate;
import io.ramjet.server.broker.console.Listings;
import io.ramjet.server.broker.console.MessagePages;
import io.ramjet.server.broker.console.RateHistory;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.log.DiskGuard;
import io.ramjet.server.broker.log.NonPersistentHorizon;
import io.ramjet.server.broker.metrics.BrokerMetrics;
import io.ramjet.server.broker.metrics.MetricsEndpoint;
import io.ramjet.server.broker.processor.Access;
import io.ramjet.server.broker.processor.AckProcessor;
import io.ramjet.server.broker.processor.AdminProcessor;
import io.ramjet.server.broker.processor.Authentication;
import io.ramjet.server.broker.processor.BrowseProcessor;
import io.ramjet.server.broker.processor.ClientConnections;
import io.ramjet.server.broker.processor.ClientIdProcessor;
import io.ramjet.server.broker.processor.ConnectionSession;
import io.ramjet.server.broker.processor.ConsumerDetacher;
import io.ramjet.server.broker.processor.ConsumerRegistry;
import io.ramjet.server.broker.processor.LargeChunkProcessor;
import io.ramjet.server.broker.large.LargeMessages;
import io.ramjet.server.broker.large.OpenUploads;
import io.ramjet.server.broker.processor.DestinationDeleter;
import io.ramjet.server.broker.processor.LeaseGate;
import io.ramjet.server.broker.processor.OperationsProcessor;
import io.ramjet.server.broker.processor.ProducingConnections;
import io.ramjet.server.broker.processor.PullProcessor;
import io.ramjet.server.broker.processor.Refusals;
import io.ramjet.server.broker.processor.RemoteCoordinators;
import io.ramjet.server.broker.processor.ReplicaFetcher;
import io.ramjet.server.broker.processor.ReplicationProcessor;
import io.ramjet.server.broker.processor.SendProcessor;
import io.ramjet.server.broker.processor.SubscriptionProcessor;
import io.ramjet.server.broker.processor.Timed;
import io.ramjet.server.broker.processor.TransactionHalves;
import io.ramjet.server.broker.processor.TransactionProcessor;
import io.ramjet.server.broker.replication.EpochFile;
import io.ramjet.server.broker.replication.InSyncReplicas;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.broker.replication.ReplicationControl;
import io.ramjet.server.broker.retention.RetentionScanner;
import io.ramjet.server.broker.security.Authorizer;
import io.ramjet.server.broker.security.Identity;
import io.ramjet.server.broker.security.Login;
import io.ramjet.server.broker.security.Permissions;
import io.ramjet.server.broker.security.SecurityFiles;
import io.ramjet.server.broker.session.ClientIdClaims;
import io.ramjet.server.broker.session.TemporaryDestinations;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.transaction.Transactions;
import io.ramjet.server.cluster.ClusterIntroduction;
import io.ramjet.server.cluster.ClusterMembership;
import io.ramjet.server.remoting.BrokerRegistrar;
import io.ramjet.server.remoting.NameServerRegistrations;
import io.ramjet.server.remoting.RemotingServer;
import io.ramjet.storage.AppendLane;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.ReplicationGate;
import io.ramjet.storage.StoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A broker: the message store in the data directory, the remoting server serving producers and
 * consumers, the subscriptions with their per-message state, the held pulls, the transactions with their check-back, and the registration with the
 * NameServers. Wires the parts together and owns their lifecycle; the work is done by the
 * processors, the delivery classes and the transaction package.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
    private static final Duration NAME_SERVER_TIMEOUT = Duration.ofSeconds(3);
    /** Segments are large and deleted whole: looking every ten seconds is plenty. */
    private static final long RETENTION_PERIOD_MILLIS = 10_000;
    /** Logins waiting past this many are answered BUSY. */
    private static final int MAX_QUEUED_LOGINS = 256;
    /** How often the metrics sample the destinations between scrapes (for JMX). */
    private static final long METRICS_SAMPLE_MILLIS = 10_000;
    /** How often the console's rate history samples the destinations, as often as its page asks. */
    private static final long HISTORY_PERIOD_MILLIS = 2_000;
    /** Samples of the console's rate history: the last five minutes. */
    private static final int HISTORY_POINTS = 150;
    /** How long a slave's start waits for its master to answer the handshake. */
    private static final Duration MASTER_PATIENCE = Duration.ofSeconds(30);
    /** What a slave refuses: everything a client may ask but browsing and authenticating. */
    private static final short[] SLAVE_REFUSED = {CommandCode.SEND, CommandCode.SUBSCRIBE, CommandCode.PULL,
            CommandCode.ACK, CommandCode.LAZY_ACK, CommandCode.RELEASE_BATCH, CommandCode.CLOSE_CONSUMER,
            CommandCode.DELETE_SUBSCRIPTION,
            CommandCode.CREATE_DESTINATION, CommandCode.DELETE_DESTINATION, CommandCode.LIST_DESTINATIONS,
            CommandCode.TX_PREPARE, CommandCode.TX_END, CommandCode.TX_QUERY, CommandCode.XA_RECOVER,
            CommandCode.TX_COMMIT_COUNTED,
            CommandCode.CLAIM_CLIENT_ID, CommandCode.ADMIN_DESTINATIONS, CommandCode.ADMIN_SUBSCRIPTIONS,
            CommandCode.ADMIN_CONSUMERS, CommandCode.ADMIN_PURGE, CommandCode.ADMIN_MOVE, CommandCode.ADMIN_BROKER,
            CommandCode.ADMIN_TRANSACTIONS, CommandCode.ADMIN_CREATE, CommandCode.REPLICA_HANDSHAKE, CommandCode.REPLICA_FETCH};

    private final BrokerConfig config;
    private final StoreConfig storeConfig;
    private final ReplicationControl control;
    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final ExecutorService processors;
    /**
     * Serves the other brokers of the cluster (their handshake, a slave's fetches) apart from
     * {@link #processors}, whose threads may wait for those very fetches (a durable append under
     * synchronous replication): behind them, a fetch would wait until the writes time out.
     */
    private final ExecutorService clusterRequests;
    /** Where SEND and TX_COMMIT_COUNTED run ({@link SendLane}); the store's, opened with it. */
    private AppendLane sends;
    private final ScheduledExecutorService timer;
    /** AUTHENTICATE hashes for about 0.1 s: one thread and a bounded queue, so a flood of logins cannot starve messaging. */
    private final ExecutorService logins;
    private final HeldPulls heldPulls;
    private final DelayedMessages delayed;
    private final DeliveryMarks marks = new DeliveryMarks(DeliveryMarks.DEFAULT_AHEAD, DeliveryMarks.DEFAULT_MAX_LEAD);
    private final NonPersistentHorizon horizon;
    private final LongAdder recordsReadForDelivery = new LongAdder();
    private final DiscardCounts discards = new DiscardCounts();
    private final ProducingConnections producing = new ProducingConnections();
    private final Transactions transactions;
    /** The idempotent producers' duplicate table. */
    private final ProducerTable producers;
    private long startedAt;
    /** Depths and backlogs, for the operator's commands and the metrics. */
    private Statistics statistics;
    /** The metrics and their endpoints; null when the configuration turns them off. */
    private MetricsEndpoint metrics;
    private MessageStore store;
    private RemotingServer server;
    private volatile RemotingClient nameServerRemoting;
    /** Asks the coordinators of prepared transactions (TX_QUERY to other brokers). */
    private RemotingClient coordinatorRemoting;
    private BrokerRegistrar registrar;
    private ConsumptionLog log;
    private RetentionScanner retention;
    /** Large sends whose chunks are written and whose SEND has not come. */
    private final OpenUploads uploads = new OpenUploads();
    private LargeMessages largeMessages;
    /** Replication: the epoch history, the master's in-sync set, the slave's fetcher. */
    private EpochFile epochs;
    private InSyncReplicas inSyncReplicas;
    private RemotingClient replicaRemoting;
    private ReplicaFetcher replicaFetcher;
    /** Which connections are proven members of the cluster: the check of every broker-to-broker command. */
    private ClusterMembership members;

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
        this.horizon = new NonPersistentHorizon(config.dataDir().resolve("broker"), storeConfig.forceRecorder());
        this.storeConfig = storeConfig;
        this.control = control;
        this.destinations = new DestinationTable(config.autoCreateDestinations(), config.queuesPerDestination());
        this.subscriptions = new SubscriptionTable(config.messageGroups().rebalanceOnJoin());
        AtomicInteger threads = new AtomicInteger();
        this.processors = Executors.newFixedThreadPool(Math.max(4, Runtime.getRuntime().availableProcessors() * 2),
                r -> daemon(r, "ramjet-broker-" + threads.incrementAndGet()));
        this.clusterRequests = Executors.newSingleThreadExecutor(r -> daemon(r, "ramjet-broker-cluster"));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ramjet-broker-timer"));
        this.logins = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_QUEUED_LOGINS),
                r -> daemon(r, "ramjet-broker-login"));
        this.heldPulls = new HeldPulls(processors, timer);
        this.delayed = new DelayedMessages(timer);
        this.transactions = new Transactions(subscriptions, heldPulls, delayed);
        this.producers = new ProducerTable(config.producers());
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    private void loadHorizon() {
        try {
            horizon.load();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the NON_PERSISTENT horizon in " + config.dataDir(), e);
        }
    }

    /** After a crash the NON_PERSISTENT messages stored are not delivered (their acknowledgements were not logged). */
    private void raiseHorizon() {
        try {
            horizon.raiseTo(store.maxPhysicalOffset());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the NON_PERSISTENT horizon in " + config.dataDir(), e);
        }
        LOG.info("NON_PERSISTENT messages stored before offset {} (before the crash) will not be delivered",
                horizon.horizon());
    }

    /** Opens the store, binds the port and registers with the NameServers. */
    public synchronized void start() throws RemotingException {
        if (store != null) {
            throw new IllegalStateException("already started");
        }
        startedAt = System.currentTimeMillis();
        ConsumptionSnapshotter snapshotter = new ConsumptionSnapshotter(
                new SnapshotFile(config.dataDir().resolve("broker"), storeConfig.forceRecorder()), destinations,
                subscriptions, delayed, marks, transactions.table(), producers);
        ReplicationConfig replication = config.replication();
        epochs = new EpochFile(config.dataDir(), storeConfig.forceRecorder());
        inSyncReplicas = new InSyncReplicas(replication, System::nanoTime, control.inSyncCommit());
        if (replication.slave()) {
            joinMaster();
        }
        loadHorizon();
        long snapshotPosition = snapshotter.load();
        ConsumptionReplay replay = new ConsumptionReplay(destinations, subscriptions, marks, snapshotPosition);
        transactions.replayFrom(snapshotPosition);
        store = MessageStore.open(storeConfig, new BrokerDispatchListener(heldPulls, replay,
                snapshotter, delayed, transactions.dispatch(), producers), replication.slave() ? ReplicationGate.NONE
                : inSyncReplicas);
        largeMessages = new LargeMessages(store);
        boolean wasSlave = ReplicaMarker.wasSlave(config.dataDir(), replication.slave());
        if (!replication.slave()) {
            // a slave stays in replay: it applies every record as recovery does, and starts nothing that writes
            replay.finish();
            if (!store.recoveryReport().cleanShutdown() || wasSlave) {
                marks.applyAfterCrash(subscriptions, store);
                raiseHorizon();
            }
            marks.start(store);
            delayed.start(store);
            epochs.begin(replication.masterEpoch() > 0 ? replication.masterEpoch() : epochs.lastEpoch() + 1,
                    store.maxPhysicalOffset());
        }
        log = new ConsumptionLog(store);
        deleteQueuesOfUnknownDestinations();
        try {
            server = new RemotingServer(config.remoting());
            statistics = new Statistics(store, destinations, subscriptions, delayed);
            startMetrics();
            Login login = SecurityFiles.login(config.usersFile(), config.access());
            registerAuthentication(login);
            if (replication.slave()) {
                registerSlaveProcessors();
            } else {
                registerProcessors(login);
            }
            server.start();
            startReplication();
            retention = new RetentionScanner(store, destinations, subscriptions, delayed, transactions.table(),
                    largeMessages, uploads);
            timer.scheduleWithFixedDelay(retention, RETENTION_PERIOD_MILLIS, RETENTION_PERIOD_MILLIS,
                    TimeUnit.MILLISECONDS);
            if (!replication.slave()) {
                startRegistrar();
            }
        } catch (RemotingException | RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("broker {} listening on {} with data in {}", config.brokerName(), address(), config.dataDir());
    }

    /** A slave's handshake with its master, and truncation of a divergent tail, before the store opens. */
    private void joinMaster() {
        if (config.clusterIdentity() == null) {
            throw new IllegalStateException("slave " + config.brokerName() + "/" + config.brokerId() + " has no"
                    + " cluster secret to prove to its master: set clusterSecret (or nameServerSecret) on every broker"
                    + " of the group");
        }
        replicaRemoting = new RemotingClient(RemotingClientConfig.defaults().withTls(config.tls().client()));
        try {
            SlaveJoin.join(config, storeConfig, epochs, replicaRemoting, introduction(), MASTER_PATIENCE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted joining master " + config.replication().masterAddress(), e);
        } catch (RuntimeException e) {
            replicaRemoting.close();
            replicaRemoting = null;
            throw e;
        }
    }

    /** A master serves its slaves' fetches and keeps its in-sync set; a slave starts fetching. */
    private void startReplication() {
        if (config.replication().slave()) {
            replicaFetcher = new ReplicaFetcher(replicaRemoting, config.replication().masterAddress(),
                    config.brokerId(), introduction(), store, epochs, ReplicaFetcher.Settings.DEFAULT);
            replicaFetcher.start();
            return;
        }
        ReplicationProcessor replication = new ReplicationProcessor(store, epochs, inSyncReplicas, members,
                config.brokerName(), config.brokerId(), timer, clusterRequests);
        server.registerProcessor(CommandCode.REPLICA_HANDSHAKE, Refusals.mapped(replication::handshake),
                clusterRequests);
        server.registerAsyncProcessor(CommandCode.REPLICA_FETCH, Refusals.mappedAsync(replication::fetch),
                clusterRequests);
        long period = Math.max(10, Math.min(config.replication().maxLag().toMillis(),
                config.replication().syncTimeout().toMillis()) / 10);
        timer.scheduleWithFixedDelay(inSyncReplicas::check, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * A slave serves browsing only: everything else a client may ask is refused as NOT_MASTER,
     * so nothing but replication writes its log.
     */
    private void registerSlaveProcessors() {
        server.registerProcessor(CommandCode.BROWSE,
                Refusals.mapped(new BrowseProcessor(store, destinations, subscriptions, access(authorizer()))::browse), processors);
        for (short code : SLAVE_REFUSED) {
            server.registerProcessor(code, Refusals.mapped((connection, request) -> {
                throw new BrokerException(Refusal.NOT_MASTER, "broker " + config.brokerName() + "/"
                        + config.brokerId() + " is a slave: " + CommandCode.name(code) + " goes to its master "
                        + config.replication().masterAddress());
            }), processors);
        }
    }

    /**
     * Deletes the ConsumeQueues of destinations the broker does not have: temporary ones whose
     * connection ended with the previous run (they are never logged), or whose deletion a crash
     * interrupted.
     */
    private void deleteQueuesOfUnknownDestinations() {
        java.util.Set<String> known = new java.util.HashSet<>();
        destinations.list().forEach(d -> known.add(d.storageName()));
        for (String storageName : store.queueDestinations()) {
            if (!known.contains(storageName)) {
                LOG.info("deleting the ConsumeQueues of {}: no such destination on this broker", storageName);
                store.deleteQueues(storageName).join();
            }
        }
    }

    /** Creates the destinations the configuration names, whatever the auto-creation policy. */
    private void createConfiguredDestinations(DestinationResolver resolver) {
        for (String name : config.queues()) {
            resolver.ensure(new Destination(name, io.ramjet.model.DestinationKind.QUEUE,
                    config.queuesPerDestination(), false));
        }
        for (String name : config.topics()) {
            resolver.ensure(new Destination(name, io.ramjet.model.DestinationKind.TOPIC,
                    config.queuesPerDestination(), false));
        }
    }

    private void registerProcessors(Login login) {
        Authorizer authorizer = authorizer();
        Access access = access(authorizer);
        Runnable destinationsChanged = this::announceDestinations;
        DestinationResolver resolver = new DestinationResolver(destinations, this::destinationCreated);
        createConfiguredDestinations(resolver);
        Acknowledgements acknowledgements = new Acknowledgements(log, heldPulls);
        DeadLetterQueue deadLetters = new DeadLetterQueue(store, resolver, config.deadLetterPrefix(),
                config.queuesPerDestination(), acknowledgements::ackOne, discards);
        MessageFetcher fetcher = new MessageFetcher(store, deadLetters, marks, config.maxDeliveries(),
                recordsReadForDelivery, config.messageGroups(), discards, horizon);
        ConsumerDetacher detacher = new ConsumerDetacher(subscriptions, heldPulls);
        ConsumerRegistry consumers = new ConsumerRegistry(detacher::detach);
        server.addConnectionListener(ConnectionSession.onClose(consumers::closed));

        DestinationDeleter deleter = new DestinationDeleter(destinations, subscriptions, log, store, discards,
                destinationsChanged);
        TemporaryDestinations temporaries = new TemporaryDestinations(deleter::delete);
        ClientIdClaims clientIds = new ClientIdClaims();
        server.addConnectionListener(ConnectionSession.onClose(temporaries::closed));
        SubscriptionProcessor subscribe = new SubscriptionProcessor(store, resolver, subscriptions, consumers, detacher,
                log, marks, temporaries, clientIds, access);
        AckProcessor acks = new AckProcessor(subscriptions, acknowledgements, heldPulls, consumers);
        AdminProcessor admin = new AdminProcessor(destinations, deleter, config.queuesPerDestination(), log,
                temporaries, access, destinationsChanged);
        DiskGuard disk = diskGuard();
        SendProcessor send = new SendProcessor(store, resolver, disk,
                new TransactionHalves(transactions.table()), access, producers, largeMessages, uploads);
        LargeChunkProcessor chunks = new LargeChunkProcessor(store, resolver, disk, access, uploads, largeMessages);
        server.registerProcessor(CommandCode.LARGE_CHUNK_WRITE, Refusals.mapped(chunks::write), processors);
        server.registerProcessor(CommandCode.LARGE_CHUNK_READ, Refusals.mapped(chunks::read), processors);
        server.addConnectionListener(ConnectionSession.onClose(uploads::closed));
        sends = store.appendLane("ramjet-broker-send", disk::holding);
        SendLane sendLane = new SendLane(sends);
        for (short code : new short[] {CommandCode.SEND, CommandCode.LARGE_SEND}) {
            server.registerAsyncProcessor(code, metrics == null ? Refusals.mappedAsync(send)
                    : producing.counting(Timed.async(Refusals.mappedAsync(send), metrics.metrics().sendTimer())),
                    sendLane);
        }
        server.registerAsyncProcessor(CommandCode.SUBSCRIBE, Refusals.mappedAsync(subscribe::subscribe),
                processors);
        // in arrival order per connection: a consumer's pulls claim its messages in the order it sent them
        server.registerInOrderProcessor(CommandCode.PULL, Timed.async(Refusals.mappedAsync(
                new PullProcessor(resolver, subscriptions, fetcher, heldPulls, consumers)),
                metrics == null ? Timed.UNTIMED : metrics.metrics().pullTimer()), processors);
        server.registerAsyncProcessor(CommandCode.ACK, Refusals.mappedAsync(acks::ack), processors);
        server.registerAsyncProcessor(CommandCode.LAZY_ACK, Refusals.mappedAsync(acks::lazyAck), processors);
        server.registerProcessor(CommandCode.RELEASE_BATCH, Refusals.mapped(acks::release), processors);
        server.registerProcessor(CommandCode.CLOSE_CONSUMER, Refusals.mapped(subscribe::closeConsumer), processors);
        server.registerAsyncProcessor(CommandCode.DELETE_SUBSCRIPTION,
                Refusals.mappedAsync(subscribe::deleteSubscription), processors);
        server.registerProcessor(CommandCode.CREATE_DESTINATION, Refusals.mapped(admin::create), processors);
        server.registerProcessor(CommandCode.DELETE_DESTINATION, Refusals.mapped(admin::delete), processors);
        server.registerProcessor(CommandCode.LIST_DESTINATIONS, Refusals.mapped(admin::list), processors);
        coordinatorRemoting = new RemotingClient(RemotingClientConfig.defaults().withTls(config.tls().client()));
        transactions.start(store, timer, new Transactions.Settings(config.transactionCheckAfter(),
                config.transactionCheckInterval(), config.transactionMaxChecks()), consumers,
                new RemoteCoordinators(coordinatorRemoting, coordinatorIntroduction()));
        TransactionProcessor tx = new TransactionProcessor(transactions.clients(), transactions.coordinatorQuery(),
                access);
        server.registerAsyncProcessor(CommandCode.TX_PREPARE, Refusals.mappedAsync(tx::prepare), processors);
        server.registerAsyncProcessor(CommandCode.TX_END, Refusals.mappedAsync(tx::end), processors);
        // where SENDs run: a connection's counted commit runs after the SENDs it sent before it
        server.registerAsyncProcessor(CommandCode.TX_COMMIT_COUNTED, Refusals.mappedAsync(tx::commitCounted),
                sendLane);
        server.registerProcessor(CommandCode.XA_RECOVER, Refusals.mapped(tx::recover), processors);
        // participant brokers only: a transaction's outcome is no client's to learn
        server.registerAsyncProcessor(CommandCode.TX_QUERY, Refusals.mappedAsync((connection, request) -> {
            members.requireAnyMember(connection, CommandCode.TX_QUERY);
            return tx.query(connection, request);
        }), processors);
        server.addConnectionListener(ConnectionSession.onClose(transactions::sessionClosed));
        server.addConnectionListener(ConnectionSession.onClose(clientIds::closed));
        server.registerProcessor(CommandCode.CLAIM_CLIENT_ID, Refusals.mapped(new ClientIdProcessor(clientIds)::claim),
                processors);
        server.registerProcessor(CommandCode.BROWSE,
                Refusals.mapped(new BrowseProcessor(store, destinations, subscriptions, access)::browse), processors);
        registerOperations(consumers, resolver, deleter, access, ConsoleGate.secured(login, authorizer));
    }

    /** The permissions file's authorizer (read again when the file changes). */
    private Authorizer authorizer() {
        Supplier<Permissions> permissions = SecurityFiles.permissions(config.access());
        if (!permissions.get().isOpen()) {
            LOG.info("broker {}: {} permission rules from {} (read again when it changes)", config.brokerName(),
                    permissions.get().size(), config.access().permissionsFile());
        }
        return new Authorizer(permissions);
    }

    private Access access(Authorizer authorizer) {
        return new Access(authorizer, Identity.anonymous(config.access().anonymousRoles()));
    }

    /** The operator's commands, and the web console on the metrics port when there is one. */
    private void registerOperations(ConsumerRegistry consumers, DestinationResolver resolver,
                                    DestinationDeleter deleter, Access access, ConsoleGate securedConsole) {
        QueueSubscriptions queues = new QueueSubscriptions(store, destinations, subscriptions, log);
        BrokerFactsReader facts = new BrokerFactsReader(new BrokerFactsReader.Identity(config.brokerName(),
                startedAt, config.diskUseLimit()), this::address, store, destinations, transactions.table());
        Purge purge = new Purge(store, queues, subscriptions, log);
        MessageMover mover = new MessageMover(store, resolver, queues, log);
        new OperationsProcessor(statistics, purge, mover, facts, consumers,
                new TransactionListing(transactions.table()), resolver, config.queuesPerDestination(), access)
                .registerOn(server, processors);
        if (metrics != null && metrics.port() >= 0) {
            if (config.metricsRequireLogin()) {
                metrics.guardScrapes(securedConsole::admit);
            }
            RateHistory history = new RateHistory(() -> statistics.destinations(null), System::currentTimeMillis,
                    HISTORY_PERIOD_MILLIS, HISTORY_POINTS);
            timer.scheduleWithFixedDelay(history::sample, 0, HISTORY_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
            RemotingServer remoting = server;
            ClusterOverview cluster = new ClusterOverview(config, this::address, () -> epochs.lastEpoch(),
                    () -> store.maxPhysicalOffset(), inSyncReplicas, () -> nameServerRemoting);
            new Console(hasLogin() ? securedConsole : ConsoleGate.open(),
                    new Listings(statistics, consumers::list, facts::read,
                            new ClientConnections(remoting::connections, consumers, producing), cluster),
                    history, new MessagePages(store, queues, subscriptions),
                    new Actions(purge, mover, resolver, deleter::delete, config.queuesPerDestination()))
                    .mountOn(metrics::serve);
            LOG.info("broker {}: web console on http://{}:{}/console/{}{}", config.brokerName(), config.host(),
                    metrics.port(), hasLogin() ? " (HTTP Basic, admin permission)" : "",
                    config.metricsRequireLogin() ? "; /metrics behind the same login" : "");
        }
    }

    /** Whether connections can log in (a users file or JAAS): the broker's security is on. */
    private boolean hasLogin() {
        return config.usersFile() != null || config.access().usesJaas();
    }

    /** This broker's proof of membership to another broker, made with the cluster secret. */
    private ClusterIntroduction introduction() {
        return new ClusterIntroduction(config.clusterIdentity(), config.brokerName(), config.brokerId());
    }

    /**
     * How this broker introduces itself to the coordinators it asks: by the cluster secret, else
     * by a login as {@code clusterUser}, else not at all (they then refuse to answer).
     */
    private RemoteCoordinators.Introduction coordinatorIntroduction() {
        if (config.clusterIdentity() != null) {
            ClusterIntroduction introduction = introduction();
            return (address, timeout) -> introduction.to(coordinatorRemoting, address, timeout);
        }
        if (config.clusterUser() != null) {
            AuthenticateRequest credentials = new AuthenticateRequest(config.clusterUser(),
                    Objects.requireNonNullElse(config.clusterPassword(), ""));
            return (address, timeout) -> coordinatorRemoting.invoke(address,
                    Frame.request(CommandCode.AUTHENTICATE, credentials), timeout).thenAccept(answer -> { });
        }
        return (address, timeout) -> CompletableFuture.completedFuture(null);
    }

    /**
     * The cluster handshake (CLUSTER_CHALLENGE, CLUSTER_AUTHENTICATE), AUTHENTICATE, and the gate
     * that refuses unauthenticated connections when anonymous access is off (a proven member
     * passes it).
     */
    private void registerAuthentication(Login login) {
        members = new ClusterMembership(config.clusterIdentity(), config.clusterUser(), Authentication::identityOf);
        if (!members.enabled()) {
            LOG.info("broker {}: no cluster secret (clusterSecret or nameServerSecret): no broker may replicate from"
                    + " it{}", config.brokerName(), config.clusterUser() == null
                    ? " or ask it about the transactions it coordinates"
                    : ", and only clusterUser may ask it about the transactions it coordinates");
        }
        server.registerProcessor(CommandCode.CLUSTER_CHALLENGE, Refusals.mapped(members::challenge), clusterRequests);
        server.registerProcessor(CommandCode.CLUSTER_AUTHENTICATE, Refusals.mapped(members::authenticate),
                clusterRequests);
        Authentication authentication = new Authentication(login, config.allowAnonymous());
        if (hasLogin()) {
            LOG.info("broker {}: users from {}, anonymous connections {}", config.brokerName(),
                    config.access().usesJaas() ? "JAAS entry " + config.access().jaasEntry() : config.usersFile(),
                    config.allowAnonymous() ? "allowed" : "refused");
        }
        // a master that lost its lease refuses what a slave refuses, but still serves its slaves
        if (config.replication().slave()) {
            server.setRequestGate(authentication);
        } else {
            LeaseGate fence = new LeaseGate(authentication, control.lease(), SLAVE_REFUSED, config.brokerName());
            server.setRequestGate(fence);
            server.addConnectionListener(fence);
        }
        server.registerProcessor(CommandCode.AUTHENTICATE, Refusals.mapped(authentication::authenticate), logins);
    }

    /** Metrics, when configured: Micrometer is loaded only then. */
    private void startMetrics() {
        if (!config.metricsEnabled()) {
            return;
        }
        RemotingServer remoting = server;
        metrics = new MetricsEndpoint(config.host(), config.metricsPort(), config.metricsJmx(), config.brokerName(),
                registry -> new BrokerMetrics(registry, new BrokerMetrics.Sources(statistics, store,
                        config.dataDir().toFile(), config.diskUseLimit(), () -> remoting.connections().size(),
                        producing::count, discards)));
        remoting.addConnectionListener(producing);
        metrics.metrics().countProducerDuplicates(producers);
        timer.scheduleWithFixedDelay(metrics.metrics()::sample, METRICS_SAMPLE_MILLIS, METRICS_SAMPLE_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    private DiskGuard diskGuard() {
        try {
            return new DiskGuard(config.dataDir(), config.diskUseLimit(), config.diskFullBlock());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch the disk of " + config.dataDir(), e);
        }
    }

    private void startRegistrar() {
        if (config.nameServers().isEmpty()) {
            return;
        }
        nameServerRemoting = new RemotingClient(RemotingClientConfig.defaults().withTls(config.tls().client()));
        NameServerRegistrations nameServers = new NameServerRegistrations(nameServerRemoting, config.nameServers(),
                NAME_SERVER_TIMEOUT);
        registrar = new BrokerRegistrar(nameServers, this::registration, config.heartbeatInterval(),
                config.nameServerSecret());
        // wait for the first registration, so a client started after start() finds the route;
        // a NameServer that is down only delays it: the heartbeat registers again
        try {
            registrar.start().get(NAME_SERVER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("broker {} is not registered with any NameServer yet ({}); the heartbeat will retry",
                    config.brokerName(), e.getCause() == null ? e.toString() : e.getCause().toString());
        }
    }

    /** Only a master registers, so always as {@link BrokerInfo#MASTER_ID}, with the epoch it serves. */
    private RegisterBrokerRequest registration() {
        return new RegisterBrokerRequest(brokerInfo(), AdminProcessor.infos(destinations), epochs.lastEpoch());
    }

    /** Logs a destination created on first use (before the message that created it) and announces it. */
    private void destinationCreated(Destination destination) {
        log.destinationCreatedOnUse(destination);
        announceDestinations();
    }

    private void announceDestinations() {
        BrokerRegistrar r = registrar;
        if (r != null) {
            r.registerSoon();
        }
    }

    /** As the NameServers route to it: a master under {@link BrokerInfo#MASTER_ID}, whatever its configured id. */
    public BrokerInfo brokerInfo() {
        long id = config.replication().slave() ? config.brokerId() : BrokerInfo.MASTER_ID;
        return new BrokerInfo(config.clusterName(), config.brokerName(), id, address());
    }

    /**
     * How many CommitLog records pulls have read since start: with tag filtering, about the
     * matching messages plus false positives, not every message of the queue.
     */
    public long recordsReadForDelivery() {
        return recordsReadForDelivery.sum();
    }

    public BrokerConfig config() {
        return config;
    }

    /** The bound port, the chosen one when configured with port 0. */
    public int port() {
        return server.port();
    }

    /** {@code host:port} clients connect to. */
    public String address() {
        return server.address();
    }

    /** The slaves in this master's in-sync set now, by broker id (empty on a slave): for a controller to commit. */
    public java.util.Set<Long> inSyncReplicas() {
        return inSyncReplicas.inSync();
    }

    /** This broker's epoch history (epoch and first CommitLog offset), oldest first. */
    public java.util.List<io.ramjet.model.EpochEntry> epochs() {
        return epochs.entries();
    }

    /** Bytes a slave has written from its master since start; 0 on a master. */
    public long bytesReplicated() {
        return replicaFetcher == null ? 0 : replicaFetcher.bytesReplicated();
    }

    /** For a slave, whether its master answered its last fetch; true for a master. */
    public boolean masterReachable() {
        return replicaFetcher == null || replicaFetcher.masterReachable();
    }

    /** How many transactions the broker holds (open or prepared), for tests and monitoring. */
    public int transactionCount() {
        return transactions.table().all().size();
    }

    /** How many pulls the broker holds now, for tests and monitoring. */
    public int heldPullCount() {
        return heldPulls.heldCount();
    }

    /** The bound port of the Prometheus scrape endpoint, -1 when there is none. */
    public int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    /** Runs a retention scan now, for tests. */
    public void runRetention() {
        retention.run();
    }

    /** The idempotent producers this broker remembers. */
    public ProducerTable producers() {
        return producers;
    }

    /** The store, for tests and the embedded broker. */
    public MessageStore store() {
        return store;
    }

    /** Unregisters, stops serving, answers held pulls and closes the store cleanly (checkpoint). */
    @Override
    public synchronized void close() {
        if (registrar != null) {
            registrar.close();
            registrar = null;
        }
        if (nameServerRemoting != null) {
            nameServerRemoting.close();
            nameServerRemoting = null;
        }
        if (replicaFetcher != null) {
            replicaFetcher.close();
            replicaFetcher = null;
        }
        if (replicaRemoting != null) {
            replicaRemoting.close();
            replicaRemoting = null;
        }
        if (inSyncReplicas != null) {
            inSyncReplicas.stop();
        }
        heldPulls.expireAll();
        // before the server: connections closing because the broker stops roll nothing back
        transactions.close();
        if (coordinatorRemoting != null) {
            coordinatorRemoting.close();
            coordinatorRemoting = null;
        }
        if (server != null) {
            server.close();
            server = null;
        }
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
        timer.shutdownNow();
        logins.shutdownNow();
        if (sends != null) {
            sends.close();
        }
        processors.shutdown();
        clusterRequests.shutdown();
        try {
            processors.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (store != null) {
            transactions.releaseHolds();
            store.close();
        }
    }
}
