package io.ramjet.cli;

import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.provider.client.ClientTlsOptions;
import io.ramjet.provider.url.RamjetUrl;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * The admin protocol as the command line speaks it: the brokers a NameServer knows, and one
 * request to one broker answered with the response header. Its connections, to NameServers and
 * brokers alike, use TLS as the URL says, with the JMS client's options
 * ({@link ClientTlsOptions}: {@code ramjets://}, trust store, key store for mutual TLS...).
 * Not thread-safe; one per command.
 */
public final class AdminClient implements AutoCloseable {

    private final RemotingClient remoting;
    private final List<String> nameServers;
    private final Duration timeout;

    /**
     * @param url     the NameServers and the TLS of every connection
     * @param timeout how long a connection may take to open and a request to be answered
     * @param user    authenticates every broker connection as this user when not null
     * @throws IllegalArgumentException when the URL or one of its TLS options is malformed
     */
    public AdminClient(RamjetUrl url, Duration timeout, String user, String password) {
        this.remoting = new RemotingClient(RemotingClientConfig.defaults().withConnectTimeout(timeout)
                .withRequestTimeout(timeout).withTls(ClientTlsOptions.fromUrl(url)));
        this.nameServers = url.nameServers();
        this.timeout = timeout;
        if (user != null) {
            AuthenticateRequest credentials = new AuthenticateRequest(user, password == null ? "" : password);
            remoting.setHandshake((address, connection) -> this.nameServers.contains(address)
                    ? CompletableFuture.completedFuture(null)
                    : connection.invoke(Frame.request(CommandCode.AUTHENTICATE, credentials), timeout)
                            .thenAccept(response -> { }));
        }
    }

    /**
     * The brokers registered with the first NameServer that answers, by name.
     *
     * @throws AdminException when no NameServer answers
     */
    public List<BrokerInfo> brokers() {
        List<String> failures = new ArrayList<>();
        for (String nameServer : nameServers) {
            try {
                return brokersOf(nameServer);
            } catch (AdminException e) {
                failures.add(e.getMessage());
            }
        }
        throw new AdminException("no NameServer answered: " + String.join("; ", failures));
    }

    /**
     * The brokers registered with any NameServer that answers, each once, by name then id: a
     * broker one NameServer dropped and another still lists shows.
     *
     * @throws AdminException when no NameServer answers
     */
    public List<BrokerInfo> brokersOfEvery() {
        List<String> failures = new ArrayList<>();
        Map<String, BrokerInfo> byAddress = new LinkedHashMap<>();
        for (String nameServer : nameServers) {
            try {
                brokersOf(nameServer).forEach(b -> byAddress.putIfAbsent(b.address(), b));
            } catch (AdminException e) {
                failures.add(e.getMessage());
            }
        }
        if (failures.size() == nameServers.size()) {
            throw new AdminException("no NameServer answered: " + String.join("; ", failures));
        }
        return byAddress.values().stream().sorted(Comparator.comparing(BrokerInfo::brokerName)
                .thenComparingLong(BrokerInfo::brokerId)).toList();
    }

    /**
     * The home groups of a destination, live or not, as every NameServer that answers knows
     * them, sorted; none when none answers.
     */
    public List<String> homeGroups(String destination) {
        TreeSet<String> groups = new TreeSet<>();
        for (String nameServer : nameServers) {
            try {
                groups.addAll(route(nameServer, destination).homeGroups());
            } catch (AdminException e) {
                // the others answer for it; brokersOfEvery already failed if none does
            }
        }
        return List.copyOf(groups);
    }

    /** The NameServers this client asks, as given. */
    public List<String> nameServers() {
        return nameServers;
    }

    /**
     * The brokers registered with one NameServer, by name then id.
     *
     * @throws AdminException when it does not answer
     */
    public List<BrokerInfo> brokersOf(String nameServer) {
        BrokerList list = call(nameServer, CommandCode.LIST_BROKERS, null, BrokerList.class);
        return list.brokers().stream().sorted(Comparator.comparing(BrokerInfo::brokerName)
                .thenComparingLong(BrokerInfo::brokerId)).toList();
    }

    /**
     * One NameServer's route of a destination: the live brokers holding it (none when it is unknown).
     *
     * @throws AdminException when it does not answer
     */
    public RouteData route(String nameServer, String destination) {
        return call(nameServer, CommandCode.QUERY_ROUTE, new QueryRouteRequest(destination), RouteData.class);
    }

    /**
     * Sends {@code header} as a {@code code} request to {@code address} and answers the
     * response's header ({@code type} Void for an empty response: null).
     *
     * @throws AdminException for a refusal (its message) or a connection failure
     */
    public <T> T call(String address, short code, Object header, Class<T> type) {
        Frame response;
        try {
            response = remoting.invokeSync(address, Frame.request(code, header), timeout);
        } catch (RemotingException e) {
            throw new AdminException(address + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminException("interrupted", e);
        }
        if (response.isError()) {
            ErrorHeader error = response.header(ErrorHeader.class);
            throw new AdminException(address + " refused " + CommandCode.name(code) + ": " + error.message());
        }
        return type == Void.class ? null : response.header(type);
    }

    @Override
    public void close() {
        remoting.close();
    }
}
