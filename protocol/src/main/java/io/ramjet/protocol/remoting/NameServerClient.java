package io.ramjet.protocol.remoting;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.frame.Frame;

import java.time.Duration;
import java.util.List;
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
