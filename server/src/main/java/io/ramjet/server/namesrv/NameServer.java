package io.ramjet.server.namesrv;

import io.ramjet.controller.ControllerNode;
import io.ramjet.protocol.command.AnnounceDestinationsRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.server.remoting.RemotingServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The routing registry: brokers register their destinations with it and heartbeat by
 * registering again; clients ask it where a destination lives. A broker is dropped when it
 * misses its heartbeats past the configured expiry, and at once when the connection it
 * registered over closes. NameServers never talk to each other: a broker registers with each.
 *
 * <p>Trust: with a secret configured, a registration or unregistration must carry a valid proof
 * of it ({@link BrokerAuthentication}); either way a broker name belongs to the connection that
 * registered it first ({@link RouteRegistry}), so a stranger can neither overwrite nor remove a
 * live broker's route. Refusals are answered with {@link ErrorStatus#BROKER_NOT_AUTHENTICATED}
 * or {@link ErrorStatus#BROKER_NAME_TAKEN} and logged once per remote host.
 *
 * <p>Route answers name a destination's home groups and, for the first
 * {@link NameServerConfig#registrationWindow()} after start, say they are not settled: brokers retry a
 * NameServer they lost every {@link io.ramjet.server.remoting.BrokerRegistrar#RECONNECT_INTERVAL},
 * so by then every live broker registered again, and until then an empty answer means "not known
 * yet", not "nowhere".
 */
public final class NameServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NameServer.class);

    /** Refusals are logged once per remote host; past this many hosts, no more are remembered or logged. */
    private static final int MAX_LOGGED_HOSTS = 10_000;

    private final NameServerConfig config;
    private final RouteRegistry registry = new RouteRegistry(connection -> ((RemotingConnection) connection).isActive());
    private final BrokerAuthentication authentication;
    private final Set<String> refusedHosts = ConcurrentHashMap.newKeySet();
    private final RemotingServer server;
    private final ExecutorService processors;
    private final ScheduledExecutorService scanner;
    /** The embedded controller node, while it runs; null when the configuration has none. */
    private volatile ControllerNode controller;
    private volatile long startedNanos;

    public NameServer(NameServerConfig config) {
        this.config = config;
        this.authentication = new BrokerAuthentication(config.secret());
        this.server = new RemotingServer(config.remoting());
        AtomicInteger threads = new AtomicInteger();
        this.processors = Executors.newFixedThreadPool(config.processorThreads(),
                r -> daemon(r, "ramjet-namesrv-" + threads.incrementAndGet()));
        this.scanner = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ramjet-namesrv-scanner"));

        server.registerProcessor(CommandCode.REGISTER_BROKER, this::register, processors);
        server.registerProcessor(CommandCode.UNREGISTER_BROKER, this::unregister, processors);
        server.registerProcessor(CommandCode.ANNOUNCE_DESTINATIONS, this::announce, processors);
        server.registerProcessor(CommandCode.QUERY_ROUTE, (connection, request) ->
                request.reply(registry.route(request.header(QueryRouteRequest.class).destination(), settled())),
                processors);
        server.registerProcessor(CommandCode.LIST_BROKERS, (connection, request) ->
                request.reply(new BrokerList(registry.brokers())), processors);
        server.addConnectionListener(new ConnectionListener() {
            @Override
            public void closed(RemotingConnection connection) {
                logDropped(registry.dropConnection(connection), "its connection closed");
            }
        });
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Binds the port and starts the expiry scanner. */
    public void start() throws RemotingException {
        startedNanos = System.nanoTime();
        server.start();
        if (!authentication.required()) {
            LOG.warn("NameServer on {} has no secret: any process that reaches it can register a broker", server.address());
        }
        long scan = config.scanInterval().toNanos();
        scanner.scheduleWithFixedDelay(this::expire, scan, scan, TimeUnit.NANOSECONDS);
        LOG.info("NameServer listening on {}", server.address());
        if (config.controller() != null) {
            try {
                controller = ControllerNode.start(config.controller());
            } catch (IOException | RuntimeException e) {
                close();
                throw e instanceof IOException io ? new UncheckedIOException("controller "
                        + config.controller().nodeId() + " did not start", io) : (RuntimeException) e;
            }
        }
    }

    private boolean settled() {
        return System.nanoTime() - startedNanos >= config.registrationWindow().toNanos();
    }

    private Frame register(RemotingConnection connection, Frame request) throws RemotingCommandException {
        RegisterBrokerRequest registration = request.header(RegisterBrokerRequest.class);
        BrokerInfo broker = registration.broker();
        if (!authentication.admits(registration, System.currentTimeMillis())) {
            throw refused(connection, ErrorStatus.BROKER_NOT_AUTHENTICATED, "registration of " + broker
                    + " refused: no valid proof of the NameServer secret");
        }
        RouteRegistry.Outcome outcome = registry.register(registration, connection, authentication.required(),
                System.nanoTime());
        if (outcome == RouteRegistry.Outcome.REFUSED) {
            throw refused(connection, ErrorStatus.BROKER_NAME_TAKEN, "registration of " + broker
                    + " refused: another live connection registered that broker name");
        }
        if (outcome == RouteRegistry.Outcome.STALE_EPOCH) {
            throw refused(connection, ErrorStatus.BROKER_NAME_TAKEN, "registration of " + broker + " at epoch "
                    + registration.epoch() + " refused: a master of epoch " + registry.epochOf(broker.clusterName(),
                    broker.brokerName(), broker.brokerId()) + " is registered");
        }
        if (outcome == RouteRegistry.Outcome.PROMOTED) {
            LOG.info("broker {} registered from {} as master of epoch {}, replacing the master of an older epoch",
                    broker, connection.remoteAddress(), registration.epoch());
        }
        if (outcome == RouteRegistry.Outcome.ADDED) {
            LOG.info("broker {} registered from {} with {} destinations", broker,
                    connection.remoteAddress(), registration.destinations().size());
        }
        if (!connection.isActive()) {
            // the connection closed while this registration waited: its close already dropped the broker once
            logDropped(registry.dropConnection(connection), "its connection closed");
        }
        return request.reply(null);
    }

    private Frame announce(RemotingConnection connection, Frame request) throws RemotingCommandException {
        AnnounceDestinationsRequest changes = request.header(AnnounceDestinationsRequest.class);
        if (!registry.announce(changes, connection)) {
            // expected after this NameServer restarted or expired the broker: not logged, the broker registers whole
            throw new RemotingCommandException(ErrorStatus.BROKER_NOT_REGISTERED, "broker " + changes.broker()
                    + " is not registered over this connection at epoch " + changes.epoch());
        }
        return request.reply(null);
    }

    private Frame unregister(RemotingConnection connection, Frame request) throws RemotingCommandException {
        UnregisterBrokerRequest leaving = request.header(UnregisterBrokerRequest.class);
        String name = leaving.clusterName() + "/" + leaving.brokerName() + "/" + leaving.brokerId();
        if (!authentication.admits(leaving, System.currentTimeMillis())) {
            throw refused(connection, ErrorStatus.BROKER_NOT_AUTHENTICATED, "unregistration of " + name
                    + " refused: no valid proof of the NameServer secret");
        }
        RouteRegistry.Outcome outcome = registry.unregister(leaving.clusterName(), leaving.brokerName(),
                leaving.brokerId(), connection);
        if (outcome == RouteRegistry.Outcome.REFUSED) {
            throw refused(connection, ErrorStatus.BROKER_NAME_TAKEN, "unregistration of " + name
                    + " refused: another live connection registered that broker name");
        }
        if (outcome == RouteRegistry.Outcome.REMOVED) {
            LOG.info("broker {} unregistered", name);
        }
        return request.reply(null);
    }

    /** The refusal to answer with, logged the first time its remote host is refused. */
    private RemotingCommandException refused(RemotingConnection connection, int status, String message) {
        String address = connection.remoteAddress();
        int colon = address.lastIndexOf(':');
        String host = colon > 0 ? address.substring(0, colon) : address;
        if (refusedHosts.size() < MAX_LOGGED_HOSTS && refusedHosts.add(host)) {
            LOG.warn("{} (from {}; further refusals from this host are not logged)", message, address);
        }
        return new RemotingCommandException(status, message);
    }

    private void expire() {
        try {
            logDropped(registry.expire(System.nanoTime(), config.brokerExpiry().toNanos()), "it missed its heartbeats");
        } catch (RuntimeException e) {
            LOG.error("broker expiry scan failed", e);
        }
    }

    private static void logDropped(List<BrokerInfo> dropped, String reason) {
        for (BrokerInfo broker : dropped) {
            LOG.info("broker {} dropped: {}", broker, reason);
        }
    }

    /** The bound port, the chosen one when configured with port 0. */
    public int port() {
        return server.port();
    }

    /** The bound address as {@code host:port}. */
    public String address() {
        return server.address();
    }

    /** Closes every connection and forgets every broker. */
    @Override
    public void close() {
        ControllerNode node = controller;
        controller = null;
        if (node != null) {
            try {
                node.close();
            } catch (IOException e) {
                LOG.warn("closing controller {} failed", node.id(), e);
            }
        }
        scanner.shutdownNow();
        server.close();
        processors.shutdownNow();
    }
}
