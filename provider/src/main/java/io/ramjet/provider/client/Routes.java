package io.ramjet.provider.client;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.provider.client.ClientException.Reason;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Where destinations live for one client: per destination, the writable masters that serve it,
 * as every NameServer that answers knows them, cached and asked again after the discovery
 * interval; and the live masters with their broker groups. A destination no settled NameServer
 * knows is created on every live master, which then announce it; one whose home groups are down
 * is never created elsewhere. Thread-safe.
 */
final class Routes {

    /** Where a destination lives for this client: a broker group, its master's address and the queue count there. */
    record Route(String brokerName, String address, int queueCount) {

        Route at(String newAddress) {
            return new Route(brokerName, newAddress, queueCount);
        }
    }

    private static final long NO_BROKER_RETRY_MILLIS = 50;

    private final RemotingClient remoting;
    private final NameServerClient nameServers;
    private final Duration timeout;
    /**
     * How long a new destination's creation waits for a master to register: the request timeout,
     * or the failover timeout when shorter (a send or consumer waits no longer than that for a
     * master).
     */
    private final Duration masterWait;
    private final long refreshNanos;
    /**
     * Per destination, the writable masters that serve it, sorted by broker name, so that a
     * producer's choice keeps naming the same group when the group's master changes.
     */
    private final Map<String, CompletableFuture<List<Route>>> routes = new ConcurrentHashMap<>();
    /** When each cached route was asked for, by the same key: one older than the discovery interval is asked again. */
    private final Map<String, Long> routesAskedNanos = new ConcurrentHashMap<>();
    /** The broker group of each master address seen listed, for {@link #groupAt}; never shrinks (a handful of brokers). */
    private final Map<String, String> groupsByAddress = new ConcurrentHashMap<>();

    Routes(RemotingClient remoting, NameServerClient nameServers, Duration timeout, Duration failoverTimeout,
           long refreshNanos) {
        this.remoting = remoting;
        this.nameServers = nameServers;
        this.timeout = timeout;
        this.masterWait = failoverTimeout.compareTo(timeout) < 0 ? failoverTimeout : timeout;
        this.refreshNanos = refreshNanos;
    }

    /** The first master serving the destination. */
    CompletableFuture<Route> first(String destination, DestinationKind kind) {
        return of(destination, kind, null).thenApply(list -> list.get(0));
    }

    /**
     * The writable masters serving the destination, from the cache; {@code failed} (after a
     * transport failure there) asks the NameServers again without that broker and caches the
     * answer, so the producers move away from a failed broker. A cached route older than the
     * discovery interval is asked again in the background and replaces the cached one once
     * answered (a failed answer keeps it), so producers rebalance onto groups that joined or came
     * back, and leave groups that no longer serve it.
     */
    CompletableFuture<List<Route>> of(String destination, DestinationKind kind, String failed) {
        String key = key(destination, kind);
        CompletableFuture<List<Route>> route;
        if (failed != null) {
            route = lookUp(destination, kind, failed);
            cache(key, route);
        } else {
            route = routes.computeIfAbsent(key, k -> asked(k, lookUp(destination, kind, null)));
            Long asked = routesAskedNanos.get(key);
            if (route.isDone() && asked != null && System.nanoTime() - asked > refreshNanos
                    && routesAskedNanos.replace(key, asked, System.nanoTime())) {
                lookUp(destination, kind, null).thenAccept(fresh -> cache(key, CompletableFuture.completedFuture(fresh)));
            }
        }
        route.whenComplete((r, failure) -> {
            if (failure != null) {
                routes.remove(key, route);
            }
        });
        return route;
    }

    /** The addresses of the cached route, empty when none is cached (yet). */
    List<String> knownAddresses(String destination, DestinationKind kind) {
        CompletableFuture<List<Route>> cached = routes.get(key(destination, kind));
        return cached != null && cached.isDone() && !cached.isCompletedExceptionally()
                ? cached.join().stream().map(Route::address).toList() : List.of();
    }

    /** Caches the one route of a destination this client just created there. */
    void created(String destination, DestinationKind kind, Route route) {
        routes.put(key(destination, kind), CompletableFuture.completedFuture(List.of(route)));
    }

    /** The cached route of a destination being deleted, or null; forgotten either way. */
    CompletableFuture<List<Route>> forget(String destination, DestinationKind kind) {
        return routes.remove(key(destination, kind));
    }

    /** Points every cached route of the group at {@code address}, its master now. */
    void followMaster(String brokerName, String address) {
        routes.replaceAll((key, cached) -> cached.isDone() && !cached.isCompletedExceptionally()
                ? CompletableFuture.completedFuture(cached.join().stream()
                        .map(r -> r.brokerName().equals(brokerName) ? r.at(address) : r).toList())
                : cached);
    }

    /** The broker group of a master address seen listed, or null. */
    String groupAt(String address) {
        return groupsByAddress.get(address);
    }

    /** A master address seen in a route, with its group. */
    void seen(BrokerInfo master) {
        groupsByAddress.put(master.address(), master.brokerName());
    }

    private void cache(String key, CompletableFuture<List<Route>> route) {
        routes.put(key, asked(key, route));
    }

    private CompletableFuture<List<Route>> asked(String key, CompletableFuture<List<Route>> route) {
        routesAskedNanos.put(key, System.nanoTime());
        return route;
    }

    /**
     * The writable masters serving the destination (other than {@code avoid}), as every
     * NameServer that answers knows it. When none does, the destination is never created as a
     * side effect of an outage: if a group homes it (its masters are down, or {@code avoid}),
     * the lookup fails; while no NameServer is settled (a NameServer's registration window is
     * short) it asks again every {@value #NO_BROKER_RETRY_MILLIS} ms until the request timeout;
     * only a destination no settled NameServer knows is created, on every live master
     * ({@link #createOnEveryMaster}).
     */
    private CompletableFuture<List<Route>> lookUp(String destination, DestinationKind kind, String avoid) {
        return lookUp(destination, kind, avoid, System.nanoTime() + timeout.toNanos());
    }

    private CompletableFuture<List<Route>> lookUp(String destination, DestinationKind kind, String avoid,
                                                  long deadline) {
        return nameServers.queryRouteFromAll(destination).thenCompose(data -> {
            List<Route> found = data.writableMasters().stream()
                    .filter(r -> r.kind() == kind && !r.broker().address().equals(avoid))
                    .map(r -> new Route(r.broker().brokerName(), r.broker().address(), r.queueCount()))
                    .sorted(Comparator.comparing(Route::brokerName))
                    .toList();
            if (!found.isEmpty()) {
                return CompletableFuture.completedFuture(found);
            }
            // home groups are kept by name: live masters serving the name as the other kind only
            // mean a queue and a topic share it, and this kind is new
            boolean otherKindOnly = data.writableMasters().stream().noneMatch(r -> r.kind() == kind)
                    && !data.writableMasters().isEmpty();
            if (!data.homeGroups().isEmpty() && !otherKindOnly) {
                return CompletableFuture.failedFuture(new ClientException(Reason.UNREACHABLE,
                        ClientException.Outcome.CERTAINLY_NOT_APPLIED, kind + " '" + destination + "' lives on "
                        + String.join(", ", data.homeGroups()) + ", where no writable master"
                        + (avoid == null ? "" : " other than " + avoid) + " is registered", null));
            }
            if (!data.settled()) {
                if (System.nanoTime() - deadline > 0) {
                    return CompletableFuture.failedFuture(new ClientException(Reason.UNREACHABLE,
                            ClientException.Outcome.CERTAINLY_NOT_APPLIED, "the NameServers started too recently "
                            + "to know whether " + kind + " '" + destination + "' exists", null));
                }
                return CompletableFuture.supplyAsync(() -> deadline,
                                CompletableFuture.delayedExecutor(NO_BROKER_RETRY_MILLIS, TimeUnit.MILLISECONDS))
                        .thenCompose(d -> lookUp(destination, kind, avoid, d));
            }
            return createOnEveryMaster(destination, kind);
        });
    }

    /**
     * Creates a destination nobody homes on every live master, each with its broker's default
     * queue count: placement across the cluster's groups is the cluster's default, and each
     * broker's {@code queues} key says how many queues a group gives it. The routes are the
     * masters that created it; fails with the first failure when none did, or when no master
     * registered within {@link #masterWait}.
     */
    private CompletableFuture<List<Route>> createOnEveryMaster(String destination, DestinationKind kind) {
        return firstMaster(System.nanoTime() + masterWait.toNanos())
                .thenCompose(any -> masters().thenApply(listed -> listed.isEmpty() ? List.of(any) : listed))
                .thenCompose(masters -> createOn(masters, destination, kind));
    }

    private CompletableFuture<List<Route>> createOn(List<BrokerInfo> masters, String destination, DestinationKind kind) {
        List<CompletableFuture<Route>> creations = masters.stream().map(broker -> remoting.invoke(broker.address(),
                        Frame.request(CommandCode.CREATE_DESTINATION, new CreateDestinationRequest(destination, kind, 0)),
                        timeout)
                .thenApply(response -> {
                    Frames.release(response);
                    return new Route(broker.brokerName(), broker.address(),
                            response.header(DestinationInfo.class).queueCount());
                })).toList();
        return CompletableFuture.allOf(creations.stream().map(c -> c.exceptionally(f -> null))
                .toArray(CompletableFuture[]::new)).thenCompose(all -> {
                    List<Route> created = creations.stream().filter(c -> !c.isCompletedExceptionally())
                            .map(CompletableFuture::join).sorted(Comparator.comparing(Route::brokerName)).toList();
                    return created.isEmpty() ? creations.get(0).thenApply(List::of)
                            : CompletableFuture.completedFuture(created);
                });
    }

    /** The live masters; each one's group is kept for {@link #groupAt}. */
    CompletableFuture<List<BrokerInfo>> masters() {
        return nameServers.listBrokers().thenApply(brokers -> {
            List<BrokerInfo> masters = brokers.stream().filter(BrokerInfo::isMaster).toList();
            masters.forEach(this::seen);
            return masters;
        });
    }

    /**
     * The first live master. A broker registers asynchronously after it starts, so an empty
     * list is asked again every {@value #NO_BROKER_RETRY_MILLIS} ms until the request timeout.
     */
    CompletableFuture<BrokerInfo> firstMaster() {
        return firstMaster(System.nanoTime() + timeout.toNanos());
    }

    private CompletableFuture<BrokerInfo> firstMaster(long deadline) {
        return masters().thenCompose(masters -> {
            if (!masters.isEmpty()) {
                return CompletableFuture.completedFuture(masters.get(0));
            }
            if (System.nanoTime() - deadline > 0) {
                return CompletableFuture.failedFuture(new ClientException(Reason.UNREACHABLE,
                        ClientException.Outcome.CERTAINLY_NOT_APPLIED, "no live broker is registered", null));
            }
            return CompletableFuture.supplyAsync(() -> deadline,
                            CompletableFuture.delayedExecutor(NO_BROKER_RETRY_MILLIS, TimeUnit.MILLISECONDS))
                    .thenCompose(this::firstMaster);
        });
    }

    private static String key(String destination, DestinationKind kind) {
        return kind + ":" + destination;
    }
}
