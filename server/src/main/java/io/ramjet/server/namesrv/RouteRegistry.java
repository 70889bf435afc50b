package io.ramjet.server.namesrv;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.RouteData;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The NameServer's whole state, in memory only: the live broker instances and the destinations
 * each announced in its latest registration. Nothing is persisted; after a restart brokers
 * reappear with their next heartbeat.
 *
 * <p>Thread-safe (one lock; every operation is short). Time is passed in as
 * {@link System#nanoTime()} values so that expiry can be tested without waiting.
 */
final class RouteRegistry {

    private record BrokerKey(String clusterName, String brokerName, long brokerId) {
    }

    private record LiveBroker(BrokerInfo info, Map<String, DestinationInfo> destinations, Object connection,
                              long lastRegisteredNanos) {
    }

    private static final Comparator<BrokerKey> ORDER = Comparator.comparing(BrokerKey::clusterName)
            .thenComparing(BrokerKey::brokerName).thenComparingLong(BrokerKey::brokerId);

    private final Map<BrokerKey, LiveBroker> brokers = new TreeMap<>(ORDER);

    /**
     * Records a registration, replacing the broker's previous one.
     *
     * @param connection the connection it came over, compared by identity in {@link #dropConnection}
     * @return true when the broker was not registered before
     */
    synchronized boolean register(RegisterBrokerRequest request, Object connection, long nowNanos) {
        BrokerInfo info = request.broker();
        Map<String, DestinationInfo> destinations = new LinkedHashMap<>();
        for (DestinationInfo destination : request.destinations()) {
            destinations.put(destination.name(), destination);
        }
        BrokerKey key = new BrokerKey(info.clusterName(), info.brokerName(), info.brokerId());
        return brokers.put(key, new LiveBroker(info, destinations, connection, nowNanos)) == null;
    }

    synchronized boolean unregister(String clusterName, String brokerName, long brokerId) {
        return brokers.remove(new BrokerKey(clusterName, brokerName, brokerId)) != null;
    }

    /** Drops every broker whose latest registration came over this connection. */
    synchronized List<BrokerInfo> dropConnection(Object connection) {
        return removeIf(broker -> broker.connection() == connection);
    }

    /** Drops every broker not registered since {@code nowNanos - expiryNanos}. */
    synchronized List<BrokerInfo> expire(long nowNanos, long expiryNanos) {
        return removeIf(broker -> nowNanos - broker.lastRegisteredNanos() > expiryNanos);
    }

    private List<BrokerInfo> removeIf(Predicate<LiveBroker> dead) {
        List<BrokerInfo> dropped = new ArrayList<>();
        brokers.values().removeIf(broker -> {
            if (dead.test(broker)) {
                dropped.add(broker.info());
                return true;
            }
            return false;
        });
        return dropped;
    }

    /** Every live broker instance holding the destination, by cluster, broker name and id. */
    synchronized RouteData route(String destination) {
        List<BrokerRoute> routes = new ArrayList<>();
        for (LiveBroker broker : brokers.values()) {
            DestinationInfo info = broker.destinations().get(destination);
            if (info != null) {
                routes.add(new BrokerRoute(broker.info(), info.kind(), info.queueCount(), info.permissions()));
            }
        }
        return new RouteData(destination, routes);
    }

    synchronized List<BrokerInfo> brokers() {
        return brokers.values().stream().map(LiveBroker::info).toList();
    }
}
