package io.ramjet.server.namesrv;

import io.ramjet.protocol.command.AnnounceDestinationsRequest;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The NameServer's whole state, in memory only: the live broker instances and the destinations
 * each announced in its latest registration, and each group's destinations as its live instances
 * last announced them. Nothing is persisted; after a restart brokers reappear as they reconnect.
 *
 * <p>Homes: a group's destinations are remembered when its last live instance is dropped (a
 * group that is down still homes them), and replaced by what its instances announce once one
 * registers again; a deletion an instance announces removes it. A route answer names a
 * destination's home groups, so that a client never takes a group's outage for "nowhere".
 *
 * <p>Ownership: the connection a broker name (cluster, broker name, broker id) was first
 * registered over owns it. Another connection may re-register or unregister that name only once
 * the owner's connection is no longer live (its close and heartbeat expiry drop the name anyway),
 * or, for a registration, when the request was authenticated with the NameServer secret and
 * announces the same address: a broker restarted on its host while the NameServer has not yet
 * seen its old connection die.
 *
 * <p>Masters and epochs: per (cluster, broker name) the master registration ({@link
 * BrokerInfo#MASTER_ID}) of the highest epoch routes. A master registering a higher epoch than
 * the holder's replaces it even while the holder's connection lives (a promoted slave ousting an
 * old master that is isolated, not dead); one registering a lower epoch is refused, whoever owns
 * the name. Equal epochs follow the ownership rule above.
 *
 * <p>Thread-safe (one lock; every operation is short). Time is passed in as
 * {@link System#nanoTime()} values so that expiry can be tested without waiting.
 */
final class RouteRegistry {

    /** What a register or unregister did. */
    enum Outcome {
        /** The name was not registered: it is now, owned by this connection. */
        ADDED,
        /** The owner re-registered (a heartbeat), or a restarted broker took its name over. */
        REPLACED,
        /** The owner unregistered. */
        REMOVED,
        /** Unregistered a name nobody holds: nothing to do. */
        ABSENT,
        /** A master of a higher epoch replaced the holder, whose connection may still be live. */
        PROMOTED,
        /** Another live connection owns the name: nothing changed. */
        REFUSED,
        /** A master registration older than the holder's epoch: nothing changed. */
        STALE_EPOCH
    }

    private record BrokerKey(String clusterName, String brokerName, long brokerId) {
    }

    private record LiveBroker(BrokerInfo info, Map<String, DestinationInfo> destinations, Object connection,
                              long lastRegisteredNanos, int epoch) {
    }

    private static final Comparator<BrokerKey> ORDER = Comparator.comparing(BrokerKey::clusterName)
            .thenComparing(BrokerKey::brokerName).thenComparingLong(BrokerKey::brokerId);

    private final Map<BrokerKey, LiveBroker> brokers = new TreeMap<>(ORDER);
    /** Per group (broker name), the destination names its live instances announced last. */
    private final Map<String, Set<String>> homes = new TreeMap<>();
    private final Predicate<Object> live;

    /** @param live whether a connection a broker registered over is still open */
    RouteRegistry(Predicate<Object> live) {
        this.live = live;
    }

    /**
     * Records a registration, replacing the broker's previous one, unless another live
     * connection owns the name or, for a master, the epochs say otherwise (see the class comment).
     *
     * @param connection    the connection it came over, compared by identity
     * @param authenticated whether the request proved the NameServer secret
     */
    synchronized Outcome register(RegisterBrokerRequest request, Object connection, boolean authenticated,
                                  long nowNanos) {
        BrokerInfo info = request.broker();
        BrokerKey key = new BrokerKey(info.clusterName(), info.brokerName(), info.brokerId());
        LiveBroker owner = brokers.get(key);
        boolean promoted = owner != null && info.isMaster() && request.epoch() > owner.epoch();
        if (owner != null && info.isMaster() && request.epoch() < owner.epoch()) {
            return Outcome.STALE_EPOCH;
        }
        if (owner != null && !promoted && !mayReplace(owner, connection)
                && !(authenticated && owner.info().address().equals(info.address()))) {
            return Outcome.REFUSED;
        }
        Map<String, DestinationInfo> destinations = new LinkedHashMap<>();
        for (DestinationInfo destination : request.destinations()) {
            destinations.put(destination.name(), destination);
        }
        brokers.put(key, new LiveBroker(info, destinations, connection, nowNanos, request.epoch()));
        rememberHomes(info.brokerName());
        if (owner == null) {
            return Outcome.ADDED;
        }
        return promoted ? Outcome.PROMOTED : Outcome.REPLACED;
    }

    /**
     * Applies a broker's created and deleted destinations to its registration, when this
     * connection holds that registration at that epoch; false (nothing changed) otherwise. Not a
     * heartbeat: only a registration renews the broker's expiry.
     */
    synchronized boolean announce(AnnounceDestinationsRequest changes, Object connection) {
        BrokerInfo info = changes.broker();
        LiveBroker owner = brokers.get(new BrokerKey(info.clusterName(), info.brokerName(), info.brokerId()));
        if (owner == null || owner.connection() != connection || owner.epoch() != changes.epoch()
                || !owner.info().equals(info)) {
            return false;
        }
        for (DestinationInfo removed : changes.removed()) {
            owner.destinations().remove(removed.name());
        }
        for (DestinationInfo added : changes.added()) {
            owner.destinations().put(added.name(), added);
        }
        rememberHomes(info.brokerName());
        return true;
    }

    /** The epoch the broker name's holder registered with, or -1 when nobody holds it. */
    synchronized int epochOf(String clusterName, String brokerName, long brokerId) {
        LiveBroker owner = brokers.get(new BrokerKey(clusterName, brokerName, brokerId));
        return owner == null ? -1 : owner.epoch();
    }

    /** Removes the broker if this connection owns it (or its owner's connection is gone). */
    synchronized Outcome unregister(String clusterName, String brokerName, long brokerId, Object connection) {
        BrokerKey key = new BrokerKey(clusterName, brokerName, brokerId);
        LiveBroker owner = brokers.get(key);
        if (owner == null) {
            return Outcome.ABSENT;
        }
        if (!mayReplace(owner, connection)) {
            return Outcome.REFUSED;
        }
        brokers.remove(key);
        return Outcome.REMOVED;
    }

    /** Sets the group's remembered destinations to what its live instances announce. */
    private void rememberHomes(String group) {
        Set<String> names = new TreeSet<>();
        for (LiveBroker broker : brokers.values()) {
            if (broker.info().brokerName().equals(group)) {
                names.addAll(broker.destinations().keySet());
            }
        }
        homes.put(group, names);
    }

    private boolean mayReplace(LiveBroker owner, Object connection) {
        return owner.connection() == connection || !live.test(owner.connection());
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

    /**
     * Every live broker instance holding the destination, by cluster, broker name and id, and the
     * groups that home it, live or not.
     *
     * @param settled whether every broker had the time to register (see {@link RouteData#settled()})
     */
    synchronized RouteData route(String destination, boolean settled) {
        List<BrokerRoute> routes = new ArrayList<>();
        for (LiveBroker broker : brokers.values()) {
            DestinationInfo info = broker.destinations().get(destination);
            if (info != null) {
                routes.add(new BrokerRoute(broker.info(), info.kind(), info.queueCount(), info.permissions()));
            }
        }
        List<String> homeGroups = homes.entrySet().stream().filter(e -> e.getValue().contains(destination))
                .map(Map.Entry::getKey).toList();
        return new RouteData(destination, routes, homeGroups, settled);
    }

    synchronized List<BrokerInfo> brokers() {
        return brokers.values().stream().map(LiveBroker::info).toList();
    }
}
