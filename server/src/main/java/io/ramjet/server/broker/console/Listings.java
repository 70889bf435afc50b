package io.ramjet.server.broker.console;

import io.ramjet.model.stats.BrokerFacts;
import io.ramjet.model.stats.ConsumerStats;
import io.ramjet.server.broker.admin.Statistics;
import io.ramjet.server.broker.processor.ClientConnections;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the console lists: {@code GET /api/destinations}, {@code /api/subscriptions} and
 * {@code /api/consumers} (each with an optional {@code destination} filter),
 * {@code /api/connections} (every open connection: its user or cluster member, TLS, consumers,
 * messages sent), {@code /api/producers} (each producing connection's sends per destination),
 * {@code /api/cluster} ({@link ClusterView}) and {@code /api/broker}, the same figures as the
 * operator's commands, sampled when asked. Thread-safe.
 */
public final class Listings {

    private final Statistics statistics;
    private final Function<String, List<ConsumerStats>> consumers;
    private final Supplier<BrokerFacts> facts;
    private final ClientConnections connections;
    private final Supplier<ClusterView> cluster;

    /** @param consumers the attached consumers of a destination, or of all for null */
    public Listings(Statistics statistics, Function<String, List<ConsumerStats>> consumers,
                    Supplier<BrokerFacts> facts, ClientConnections connections, Supplier<ClusterView> cluster) {
        this.statistics = statistics;
        this.consumers = consumers;
        this.facts = facts;
        this.connections = connections;
        this.cluster = cluster;
    }

    Object destinations(ApiCall call) {
        return statistics.destinations(call.param("destination"));
    }

    Object subscriptions(ApiCall call) {
        return statistics.subscriptions(call.param("destination"));
    }

    Object consumers(ApiCall call) {
        return consumers.apply(call.param("destination"));
    }

    Object connections(ApiCall call) {
        return connections.list();
    }

    Object producers(ApiCall call) {
        return connections.producers();
    }

    Object cluster(ApiCall call) {
        return cluster.get();
    }

    Object broker(ApiCall call) {
        return facts.get();
    }
}
