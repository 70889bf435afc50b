package io.ramjet.server.broker.processor;

import io.ramjet.model.stats.ConsumerStats;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.security.Identity;
import io.ramjet.server.cluster.ClusterMember;
import io.ramjet.server.cluster.ClusterMembership;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The broker's open connections as an operator sees them: who each is (the user it logged in as,
 * or the cluster member it proved to be), whether it came over TLS, how many consumers it has
 * attached and how many messages it sent. Read when asked. Thread-safe.
 */
public final class ClientConnections {

    /**
     * One open connection.
     *
     * @param member    the broker ({@code name/id}) a cluster member proved to be, else null
     * @param consumers consumers attached through it
     * @param sends     messages it sent since it connected
     */
    public record Client(String address, String user, String member, boolean tls, int consumers, long sends) {
    }

    private final Supplier<Collection<RemotingConnection>> connections;
    private final ConsumerRegistry consumers;
    private final ProducingConnections producing;

    public ClientConnections(Supplier<Collection<RemotingConnection>> connections, ConsumerRegistry consumers,
                             ProducingConnections producing) {
        this.connections = connections;
        this.consumers = consumers;
        this.producing = producing;
    }

    public List<Client> list() {
        Map<String, Long> consumersByAddress = consumers.list(null).stream()
                .collect(Collectors.groupingBy(ConsumerStats::connection, Collectors.counting()));
        return connections.get().stream()
                .filter(RemotingConnection::isActive)
                .map(c -> client(c, consumersByAddress.getOrDefault(c.remoteAddress(), 0L).intValue()))
                .sorted(Comparator.comparing(Client::address))
                .toList();
    }

    private Client client(RemotingConnection connection, int attached) {
        Identity identity = Authentication.identityOf(connection);
        ClusterMember member = ClusterMembership.memberOf(connection);
        return new Client(connection.remoteAddress(), identity == null ? null : identity.user(),
                member == null ? null : member.brokerName() + "/" + member.brokerId(), connection.isTls(), attached,
                producing.sends(connection));
    }

    /** The producing connections' sends per destination. */
    public List<ProducingConnections.Producer> producers() {
        return producing.list();
    }
}
