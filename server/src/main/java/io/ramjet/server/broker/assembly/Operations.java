package io.ramjet.server.broker.assembly;

import io.ramjet.server.broker.admin.BrokerFactsReader;
import io.ramjet.server.broker.admin.DeliveryStates;
import io.ramjet.server.broker.admin.MessageMover;
import io.ramjet.server.broker.admin.OperatorSubscriptions;
import io.ramjet.server.broker.admin.Purge;
import io.ramjet.server.broker.admin.QueueSubscriptions;
import io.ramjet.server.broker.admin.Statistics;
import io.ramjet.server.broker.admin.TransactionListing;
import io.ramjet.server.broker.console.Actions;
import io.ramjet.server.broker.console.Console;
import io.ramjet.server.broker.console.ConsoleGate;
import io.ramjet.server.broker.console.Listings;
import io.ramjet.server.broker.console.MessagePages;
import io.ramjet.server.broker.console.RateHistory;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.metrics.BrokerMetrics;
import io.ramjet.server.broker.metrics.MetricsEndpoint;
import io.ramjet.server.broker.processor.ClientConnections;
import io.ramjet.server.broker.processor.OperationsProcessor;
import io.ramjet.server.remoting.RemotingServer;
import io.ramjet.storage.MessageStore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's side of a broker: the metrics (Prometheus, JMX) when configured, the operator's
 * commands, and the web console on the metrics port when there is one.
 */
public final class Operations {

    private static final Logger LOG = LoggerFactory.getLogger(Operations.class);
    /** How often the metrics sample the destinations between scrapes (for JMX). */
    private static final long METRICS_SAMPLE_MILLIS = 10_000;
    /** How often the console's rate history samples the destinations, as often as its page asks. */
    private static final long HISTORY_PERIOD_MILLIS = 2_000;
    /** Samples of the console's rate history: the last five minutes. */
    private static final int HISTORY_POINTS = 150;

    private final AssemblyConfig config;
    private final BrokerState state;
    private final BrokerThreads threads;
    /** The metrics and their endpoints; null when the configuration turns them off. */
    private MetricsEndpoint metrics;

    public Operations(AssemblyConfig config, BrokerState state, BrokerThreads threads) {
        this.config = config;
        this.state = state;
        this.threads = threads;
    }

    /** Metrics, when configured: Micrometer is loaded only then. */
    public void startMetrics(RemotingServer remoting, Statistics statistics, MessageStore store) {
        if (!config.metricsEnabled()) {
            return;
        }
        metrics = new MetricsEndpoint(config.host(), config.metricsPort(), config.metricsJmx(), config.brokerName(),
                registry -> new BrokerMetrics(registry, new BrokerMetrics.Sources(statistics, store,
                        config.dataDir().toFile(), config.diskUseLimit(), () -> remoting.connections().size(),
                        state.producing()::count, state.discards())));
        remoting.addConnectionListener(state.producing());
        metrics.metrics().countProducerDuplicates(state.producers());
        threads.timer().scheduleWithFixedDelay(metrics.metrics()::sample, METRICS_SAMPLE_MILLIS, METRICS_SAMPLE_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** The metrics, null when they are off. */
    public MetricsEndpoint metrics() {
        return metrics;
    }

    /** The bound port of the Prometheus scrape endpoint, -1 when there is none. */
    public int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    /**
     * The operator's commands, and the web console on the metrics port when there is one.
     *
     * @param facts the broker's identity as the operator sees it
     * @param cluster the console's view of the cluster, made when the console is mounted
     */
    public void register(RemotingServer server, MessageStore store, ConsumptionLog log, Statistics statistics,
                  RequestProcessors.ClientCommands clients, BrokerFactsReader facts,
                  Supplier<ClusterOverview> cluster) {
        QueueSubscriptions queues = new QueueSubscriptions(store, state.destinations(), state.subscriptions(), log);
        Purge purge = new Purge(store, queues, state.subscriptions(), log);
        MessageMover mover = new MessageMover(store, clients.resolver(), queues, log);
        new OperationsProcessor(statistics, purge, mover, facts, clients.consumers(),
                new TransactionListing(state.transactions().table()), state.transactions().parkedSends(),
                clients.resolver(), config.queuesPerDestination(),
                clients.access(), new DeliveryStates(store, state.subscriptions(), state.heldPulls()),
                new OperatorSubscriptions(store, state.destinations(), state.subscriptions(), log, state.marks()))
                .registerOn(server, threads.processors());
        if (metrics != null && metrics.port() >= 0) {
            if (config.metricsRequireLogin()) {
                metrics.guardScrapes(clients.securedConsole()::admit);
            }
            RateHistory history = new RateHistory(() -> statistics.destinations(null), System::currentTimeMillis,
                    HISTORY_PERIOD_MILLIS, HISTORY_POINTS);
            threads.timer().scheduleWithFixedDelay(history::sample, 0, HISTORY_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
            boolean login = RequestProcessors.hasLogin(config);
            new Console(login ? clients.securedConsole() : ConsoleGate.open(),
                    new Listings(statistics, clients.consumers()::list, facts::read,
                            new ClientConnections(server::connections, clients.consumers(), state.producing()),
                            cluster.get()),
                    history, new MessagePages(store, queues, state.subscriptions()),
                    new Actions(purge, mover, clients.resolver(), clients.deleter()::delete,
                            config.queuesPerDestination()))
                    .mountOn(metrics::serve);
            LOG.info("broker {}: web console on http://{}:{}/console/{}{}", config.brokerName(), config.host(),
                    metrics.port(), login ? " (HTTP Basic, admin permission)" : "",
                    config.metricsRequireLogin() ? "; /metrics behind the same login" : "");
        }
    }

    /** Closes the metrics' endpoints. */
    public void close() {
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
    }
}
