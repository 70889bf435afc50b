package io.ramjet.protocol.remoting;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.frame.Frame;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The NameServer queries (routes, brokers), over a {@link RemotingClient} the caller owns. A
 * query goes to one NameServer and moves to the next on failure, starting from a different one
 * for each query so the load spreads. A broker's registration is the server module's. Thread-safe.
 */
public final class NameServerClient {

    private final RemotingClient client;
    private final List<String> addresses;
    private final Duration timeout;
    private final AtomicInteger nextQueryStart = new AtomicInteger();

    /**
     * @param addresses NameServers as {@code host:port}, at least one
     * @param timeout   timeout of each request to one NameServer
     */
    public NameServerClient(RemotingClient client, List<String> addresses, Duration timeout) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no NameServer address");
        }
        this.client = client;
        this.addresses = List.copyOf(addresses);
        this.timeout = timeout;
    }

    public List<String> addresses() {
        return addresses;
    }

    /** The destination's route from the first NameServer that answers; empty when no broker has it. */
    public CompletableFuture<RouteData> queryRoute(String destination) {
        return toAny(CommandCode.QUERY_ROUTE, new QueryRouteRequest(destination))
                .thenApply(response -> response.header(RouteData.class));
    }

    /**
     * The destination's route as every NameServer that answers knows it, merged: the live
     * brokers and home groups any of them names, settled when one of them is. A NameServer that
     * restarted, or missed a broker's registration, thus adds nothing but hides nothing. Fails
     * when none answers.
     */
    public CompletableFuture<RouteData> queryRouteFromAll(String destination) {
        List<CompletableFuture<RouteData>> answers = addresses.stream()
                .map(address -> client.invoke(address, Frame.request(CommandCode.QUERY_ROUTE,
                        new QueryRouteRequest(destination)), timeout).thenApply(r -> r.header(RouteData.class)))
                .toList();
        return CompletableFuture.allOf(answers.stream().map(a -> a.exceptionally(f -> null))
                .toArray(CompletableFuture[]::new)).thenCompose(all -> {
                    List<RouteData> answered = answers.stream().filter(a -> !a.isCompletedExceptionally())
                            .map(CompletableFuture::join).toList();
                    if (answered.isEmpty()) {
                        return answers.get(0);
                    }
                    return CompletableFuture.completedFuture(merged(destination, answered));
                });
    }

    private static RouteData merged(String destination, List<RouteData> answers) {
        Map<BrokerInfo, BrokerRoute> brokers = new TreeMap<>(Comparator.comparing(BrokerInfo::brokerName)
                .thenComparingLong(BrokerInfo::brokerId).thenComparing(BrokerInfo::address)
                .thenComparing(BrokerInfo::clusterName));
        Set<String> homes = new TreeSet<>();
        boolean settled = false;
        for (RouteData answer : answers) {
            answer.brokers().forEach(route -> brokers.putIfAbsent(route.broker(), route));
            homes.addAll(answer.homeGroups());
            settled |= answer.settled();
        }
        return new RouteData(destination, List.copyOf(brokers.values()), List.copyOf(homes), settled);
    }

    /** Every live broker instance, from the first NameServer that answers. */
    public CompletableFuture<List<BrokerInfo>> listBrokers() {
        return toAny(CommandCode.LIST_BROKERS, null)
                .thenApply(response -> response.header(BrokerList.class).brokers());
    }

    private CompletableFuture<Frame> toAny(short code, Object header) {
        int start = Math.floorMod(nextQueryStart.getAndIncrement(), addresses.size());
        return tryFrom(code, header, start, 0, null);
    }

    private CompletableFuture<Frame> tryFrom(short code, Object header, int start, int attempt, Throwable last) {
        if (attempt == addresses.size()) {
            return CompletableFuture.failedFuture(RemotingClient.unwrap(last));
        }
        String address = addresses.get((start + attempt) % addresses.size());
        return client.invoke(address, Frame.request(code, header), timeout)
                .handle((response, failure) -> failure == null
                        ? CompletableFuture.completedFuture(response)
                        : tryFrom(code, header, start, attempt + 1, failure))
                .thenCompose(next -> next);
    }
}
