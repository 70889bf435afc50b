package io.ramjet.server.broker.assembly;

import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.console.ConsoleGate;
import io.ramjet.server.broker.delivery.Acknowledgements;
import io.ramjet.server.broker.delivery.DeadLetterQueue;
import io.ramjet.server.broker.delivery.MessageFetcher;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.large.LargeMessages;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.log.DiskGuard;
import io.ramjet.server.broker.metrics.MetricsEndpoint;
import io.ramjet.server.broker.processor.Access;
import io.ramjet.server.broker.processor.AckProcessor;
import io.ramjet.server.broker.processor.AdminProcessor;
import io.ramjet.server.broker.processor.Authentication;
import io.ramjet.server.broker.processor.BrowseProcessor;
import io.ramjet.server.broker.processor.ClientIdProcessor;
import io.ramjet.server.broker.processor.ConnectionSession;
import io.ramjet.server.broker.processor.ConsumerDetacher;
import io.ramjet.server.broker.processor.ConsumerRegistry;
import io.ramjet.server.broker.processor.DestinationDeleter;
import io.ramjet.server.broker.processor.LargeChunkProcessor;
import io.ramjet.server.broker.processor.LeaseGate;
import io.ramjet.server.broker.processor.PullProcessor;
import io.ramjet.server.broker.processor.Refusals;
import io.ramjet.server.broker.processor.RemoteCoordinators;
import io.ramjet.server.broker.processor.ParkedOrigins;
import io.ramjet.server.broker.processor.ParkedQueryProcessor;
import io.ramjet.server.broker.processor.ParkedSendProcessor;
import io.ramjet.server.broker.processor.SendProcessor;
import io.ramjet.server.broker.processor.SubscriptionProcessor;
import io.ramjet.server.broker.processor.Timed;
import io.ramjet.server.broker.processor.TransactionHalves;
import io.ramjet.server.broker.processor.TransactionProcessor;
import io.ramjet.server.broker.replication.ReplicationControl;
import io.ramjet.server.broker.security.Authorizer;
import io.ramjet.server.broker.security.Identity;
import io.ramjet.server.broker.security.Login;
import io.ramjet.server.broker.security.Permissions;
import io.ramjet.server.broker.security.SecurityFiles;
import io.ramjet.server.broker.session.ClientIdClaims;
import io.ramjet.server.broker.session.TemporaryDestinations;
import io.ramjet.server.broker.transaction.Transactions;
import io.ramjet.server.cluster.ClusterIntroduction;
import io.ramjet.server.cluster.ClusterMembership;
import io.ramjet.server.remoting.RemotingServer;
import io.ramjet.storage.AppendLane;
import io.ramjet.storage.MessageStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's remoting server and which processor serves which command on it, on which
 * threads: the login and the cluster handshake on every broker, the client commands on a
 * master, browsing only on a slave. Owns the server and what the processors send on (the append
 * lane, the client asking other brokers' coordinators). Called by {@code Broker} under its lock.
 */
public final class RequestProcessors {

    private static final Logger LOG = LoggerFactory.getLogger(RequestProcessors.class);
    /** What a slave refuses: everything a client may ask but browsing and authenticating. */
    private static final short[] SLAVE_REFUSED = {CommandCode.SEND, CommandCode.SUBSCRIBE, CommandCode.PULL,
            CommandCode.ACK, CommandCode.LAZY_ACK, CommandCode.RELEASE_BATCH, CommandCode.CLOSE_CONSUMER,
            CommandCode.DELETE_SUBSCRIPTION,
            CommandCode.CREATE_DESTINATION, CommandCode.DELETE_DESTINATION, CommandCode.LIST_DESTINATIONS,
            CommandCode.TX_PREPARE, CommandCode.TX_END, CommandCode.TX_QUERY, CommandCode.XA_RECOVER,
            CommandCode.TX_COMMIT_COUNTED, CommandCode.TX_ACKS,
            CommandCode.CLAIM_CLIENT_ID, CommandCode.ADMIN_DESTINATIONS, CommandCode.ADMIN_SUBSCRIPTIONS,
            CommandCode.ADMIN_CONSUMERS, CommandCode.ADMIN_PURGE, CommandCode.ADMIN_MOVE, CommandCode.ADMIN_BROKER,
            CommandCode.ADMIN_TRANSACTIONS, CommandCode.ADMIN_CREATE, CommandCode.ADMIN_CREATE_SUBSCRIPTION,
            CommandCode.ADMIN_PARKED,
            CommandCode.ADMIN_PARKED_RESOLVE, CommandCode.REPLICA_HANDSHAKE, CommandCode.REPLICA_FETCH,
            CommandCode.PARKED_SEND, CommandCode.PARKED_QUERY};

    /** What a master's client commands hand on to the operator's commands and the console. */
    public record ClientCommands(ConsumerRegistry consumers, DestinationResolver resolver, DestinationDeleter deleter,
                          Access access, ConsoleGate securedConsole) {
    }

    private final AssemblyConfig config;
    private final ReplicationControl control;
    private final BrokerState state;
    private final BrokerThreads threads;
    /** Where SEND and TX_COMMIT_COUNTED run ({@link SendLane}); the store's, opened with it. */
    private AppendLane sends;
    /** The port the broker serves on: from {@link #openServer} to {@link #closeServer}. */
    private RemotingServer server;
    /** Asks the coordinators of prepared transactions (TX_QUERY to other brokers). */
    private RemotingClient coordinatorRemoting;
    /** Which connections are proven members of the cluster: the check of every broker-to-broker command. */
    private ClusterMembership members;

    public RequestProcessors(AssemblyConfig config, ReplicationControl control, BrokerState state, BrokerThreads threads) {
        this.config = config;
        this.control = control;
        this.state = state;
        this.threads = threads;
    }

    /** Creates the broker's remoting server from the configuration; it listens from {@link #listen}. */
    public void openServer() {
        server = new RemotingServer(config.remoting());
    }

    /** The broker's remoting server, null before {@link #openServer} and after {@link #closeServer}. */
    public RemotingServer server() {
        return server;
    }

    /**
     * Binds the port, the processors registered.
     *
     * @throws NetworkException if the port is taken or TLS cannot start
     */
    public void listen() throws NetworkException {
        try {
            server.start();
        } catch (RemotingException e) {
            throw new NetworkException(e.getMessage(), e);
        }
    }

    /** How many connections the server has open now; 0 when it is not serving. */
    public int connectionCount() {
        RemotingServer remoting = server;
        return remoting == null ? 0 : remoting.connections().size();
    }

    /** Stops serving, if serving. */
    public void closeServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** The cluster's members as the handshake proved them; set by {@link #registerAuthentication}. */
    public ClusterMembership members() {
        return members;
    }

    /** Whether connections can log in (a users file or JAAS): the broker's security is on. */
    static boolean hasLogin(AssemblyConfig config) {
        return config.usersFile() != null || config.access().usesJaas();
    }

    /**
     * The cluster handshake (CLUSTER_CHALLENGE, CLUSTER_AUTHENTICATE), AUTHENTICATE, and the gate
     * that refuses unauthenticated connections when anonymous access is off (a proven member
     * passes it).
     */
    public void registerAuthentication(Login login) {
        members = new ClusterMembership(config.clusterIdentity(), config.clusterUser(), Authentication::identityOf);
        if (!members.enabled()) {
            LOG.info("broker {}: no cluster secret (clusterSecret or nameServerSecret): no broker may replicate from"
                    + " it{}", config.brokerName(), config.clusterUser() == null
                    ? " or ask it about the transactions it coordinates"
                    : ", and only clusterUser may ask it about the transactions it coordinates");
        }
        server.registerProcessor(CommandCode.CLUSTER_CHALLENGE, Refusals.mapped(members::challenge),
                threads.clusterRequests());
        server.registerProcessor(CommandCode.CLUSTER_AUTHENTICATE, Refusals.mapped(members::authenticate),
                threads.clusterRequests());
        Authentication authentication = new Authentication(login, config.allowAnonymous());
        if (hasLogin(config)) {
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
        server.registerProcessor(CommandCode.AUTHENTICATE, Refusals.mapped(authentication::authenticate),
                threads.logins());
    }

    /**
     * A slave serves browsing only: everything else a client may ask is refused as NOT_MASTER,
     * so nothing but replication writes its log.
     */
    public void registerSlave(MessageStore store, Supplier<String> masterAddress) {
        server.registerProcessor(CommandCode.BROWSE, Refusals.mapped(new BrowseProcessor(store, state.destinations(),
                state.subscriptions(), access(authorizer()))::browse), threads.processors());
        for (short code : SLAVE_REFUSED) {
            server.registerProcessor(code, Refusals.mapped((connection, request) -> {
                throw new BrokerException(Refusal.NOT_MASTER, "broker " + config.brokerName() + "/"
                        + config.brokerId() + " is a slave: " + CommandCode.name(code) + " goes to its master "
                        + masterAddress.get());
            }), threads.processors());
        }
    }

    /**
     * A master's client commands.
     *
     * @param destinationCreated told of a destination created on first use, before its message
     * @param destinationsChanged told when a destination is created or deleted
     * @param metrics the metrics that time sends and pulls, null when they are off
     */
    public ClientCommands registerMaster(Login login, MessageStore store, ConsumptionLog log,
                                  LargeMessages largeMessages, MetricsEndpoint metrics,
                                  Consumer<Destination> destinationCreated, Runnable destinationsChanged) {
        Authorizer authorizer = authorizer();
        Access access = access(authorizer);
        DestinationResolver resolver = new DestinationResolver(state.destinations(), destinationCreated);
        createConfiguredDestinations(resolver);
        Acknowledgements acknowledgements = new Acknowledgements(log, state.heldPulls());
        DeadLetterQueue deadLetters = new DeadLetterQueue(store, resolver, config.deadLetterPrefix(),
                config.queuesPerDestination(), acknowledgements::ackOne, state.discards());
        MessageFetcher fetcher = new MessageFetcher(store, deadLetters, state.marks(), config.maxDeliveries(),
                state.recordsReadForDelivery(), config.messageGroups(), state.discards(), state.horizon());
        ConsumerDetacher detacher = new ConsumerDetacher(state.subscriptions(), state.heldPulls());
        ConsumerRegistry consumers = new ConsumerRegistry(detacher::detach);
        server.addConnectionListener(ConnectionSession.onClose(consumers::closed));

        DestinationDeleter deleter = new DestinationDeleter(state.destinations(), state.subscriptions(), log, store,
                state.discards(), destinationsChanged);
        TemporaryDestinations temporaries = new TemporaryDestinations(deleter::delete);
        ClientIdClaims clientIds = new ClientIdClaims();
        server.addConnectionListener(ConnectionSession.onClose(temporaries::closed));
        SubscriptionProcessor subscribe = new SubscriptionProcessor(store, resolver, state.subscriptions(), consumers,
                detacher, log, state.marks(), temporaries, clientIds, access);
        AckProcessor acks = new AckProcessor(state.subscriptions(), acknowledgements, state.heldPulls(), consumers);
        AdminProcessor admin = new AdminProcessor(state.destinations(), deleter, config.queuesPerDestination(), log,
                temporaries, access, destinationsChanged);
        DiskGuard disk = diskGuard();
        SendProcessor send = new SendProcessor(store, resolver, disk,
                new TransactionHalves(state.transactions().table()), access, state.producers(), largeMessages,
                state.uploads());
        LargeChunkProcessor chunks = new LargeChunkProcessor(store, resolver, disk, access, state.uploads(),
                largeMessages);
        server.registerProcessor(CommandCode.LARGE_CHUNK_WRITE, Refusals.mapped(chunks::write), threads.processors());
        server.registerProcessor(CommandCode.LARGE_CHUNK_READ, Refusals.mapped(chunks::read), threads.processors());
        server.addConnectionListener(ConnectionSession.onClose(state.uploads()::closed));
        sends = store.appendLane("ramjet-broker-send", disk::holding);
        SendLane sendLane = new SendLane(sends);
        for (short code : new short[] {CommandCode.SEND, CommandCode.LARGE_SEND}) {
            server.registerAsyncProcessor(code, metrics == null ? Refusals.mappedAsync(send)
                    : state.producing().counting(Timed.async(Refusals.mappedAsync(send), metrics.metrics().sendTimer())),
                    sendLane);
        }
        server.registerAsyncProcessor(CommandCode.SUBSCRIBE, Refusals.mappedAsync(subscribe::subscribe),
                threads.processors());
        // in arrival order per connection: a consumer's pulls claim its messages in the order it sent them
        server.registerInOrderProcessor(CommandCode.PULL, Timed.async(Refusals.mappedAsync(
                new PullProcessor(resolver, state.subscriptions(), fetcher, state.heldPulls(), consumers)),
                metrics == null ? Timed.UNTIMED : metrics.metrics().pullTimer()), threads.processors());
        server.registerAsyncProcessor(CommandCode.ACK, Refusals.mappedAsync(acks::ack), threads.processors());
        server.registerAsyncProcessor(CommandCode.LAZY_ACK, Refusals.mappedAsync(acks::lazyAck), threads.processors());
        server.registerProcessor(CommandCode.RELEASE_BATCH, Refusals.mapped(acks::release), threads.processors());
        server.registerProcessor(CommandCode.CLOSE_CONSUMER, Refusals.mapped(subscribe::closeConsumer),
                threads.processors());
        server.registerAsyncProcessor(CommandCode.DELETE_SUBSCRIPTION,
                Refusals.mappedAsync(subscribe::deleteSubscription), threads.processors());
        server.registerProcessor(CommandCode.CREATE_DESTINATION, Refusals.mapped(admin::create), threads.processors());
        server.registerProcessor(CommandCode.DELETE_DESTINATION, Refusals.mapped(admin::delete), threads.processors());
        server.registerProcessor(CommandCode.LIST_DESTINATIONS, Refusals.mapped(admin::list), threads.processors());
        registerTransactions(server, store, consumers, access, sendLane);
        registerParkedSends(server, store, resolver, disk, access);
        server.addConnectionListener(ConnectionSession.onClose(clientIds::closed));
        server.registerProcessor(CommandCode.CLAIM_CLIENT_ID, Refusals.mapped(new ClientIdProcessor(clientIds)::claim),
                threads.processors());
        server.registerProcessor(CommandCode.BROWSE, Refusals.mapped(new BrowseProcessor(store, state.destinations(),
                state.subscriptions(), access)::browse), threads.processors());
        return new ClientCommands(consumers, resolver, deleter, access, ConsoleGate.secured(login, authorizer));
    }

    /** Starts the transactions' check-back and serves their commands. */
    private void registerTransactions(RemotingServer server, MessageStore store, ConsumerRegistry consumers,
                                      Access access, SendLane sendLane) {
        Transactions transactions = state.transactions();
        coordinatorRemoting = new RemotingClient(RemotingClientConfig.defaults().withTls(config.tls().client()));
        transactions.start(store, threads.timer(), new Transactions.Settings(config.transactionCheckAfter(),
                config.transactionCheckInterval(), config.transactionMaxChecks()), consumers,
                new ParkedOrigins(new RemoteCoordinators(coordinatorRemoting, coordinatorIntroduction()),
                        coordinatorRemoting, coordinatorIntroduction(), config.clusterName(), config.nameServers()));
        TransactionProcessor tx = new TransactionProcessor(transactions.clients(), transactions.coordinatorQuery(),
                access);
        server.registerAsyncProcessor(CommandCode.TX_PREPARE, Refusals.mappedAsync(tx::prepare), threads.processors());
        server.registerAsyncProcessor(CommandCode.TX_END, Refusals.mappedAsync(tx::end), threads.processors());
        server.registerProcessor(CommandCode.TX_ACKS, Refusals.mapped(tx::acks), threads.processors());
        // where SENDs run: a connection's counted commit runs after the SENDs it sent before it
        server.registerAsyncProcessor(CommandCode.TX_COMMIT_COUNTED, Refusals.mappedAsync(tx::commitCounted),
                sendLane);
        server.registerProcessor(CommandCode.XA_RECOVER, Refusals.mapped(tx::recover), threads.processors());
        // participant brokers only: a transaction's outcome is no client's to learn
        server.registerAsyncProcessor(CommandCode.TX_QUERY, Refusals.mappedAsync((connection, request) -> {
            members.requireAnyMember(connection, CommandCode.TX_QUERY);
            return tx.query(connection, request);
        }), threads.processors());
        server.addConnectionListener(ConnectionSession.onClose(transactions::sessionClosed));
    }

    /**
     * Keeps the sends other groups may hold (PARKED_SEND, a client's, with the {@code send} right)
     * and answers other groups about this one's (PARKED_QUERY, proven cluster members only).
     */
    private void registerParkedSends(RemotingServer server, MessageStore store, DestinationResolver resolver,
                                     DiskGuard disk, Access access) {
        server.registerAsyncProcessor(CommandCode.PARKED_SEND, Refusals.mappedAsync(new ParkedSendProcessor(store,
                resolver, disk, access, state.transactions().parkedSends(), config.brokerName(),
                config.clusterIdentity() != null)), threads.processors());
        ParkedQueryProcessor query = new ParkedQueryProcessor(store, state.producers());
        server.registerAsyncProcessor(CommandCode.PARKED_QUERY, Refusals.mappedAsync((connection, request) -> {
            members.requireProvenMember(connection, CommandCode.PARKED_QUERY);
            return query.process(connection, request);
        }), threads.processors());
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

    private DiskGuard diskGuard() {
        try {
            return new DiskGuard(config.dataDir(), config.diskUseLimit(), config.diskFullBlock());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch the disk of " + config.dataDir(), e);
        }
    }

    /**
     * How this broker introduces itself to the coordinators it asks: by the cluster secret, else
     * by a login as {@code clusterUser}, else not at all (they then refuse to answer).
     */
    private RemoteCoordinators.Introduction coordinatorIntroduction() {
        if (config.clusterIdentity() != null) {
            ClusterIntroduction introduction = ReplicationSide.introduction(config);
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

    /** Stops asking other brokers' coordinators. */
    public void closeCoordinators() {
        if (coordinatorRemoting != null) {
            coordinatorRemoting.close();
            coordinatorRemoting = null;
        }
    }

    /** Closes the append lane, once no SEND can come. */
    public void closeSendLane() {
        if (sends != null) {
            sends.close();
        }
    }
}
