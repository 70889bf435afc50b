package io.ramjet.server.broker.processor;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.security.Identity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The open client connections that have sent at least one message: the broker's producers, with
 * how many messages each sent to which destination. The wire carries no producer id (a JMS
 * {@code MessageProducer} is the client's own), so a connection with several producing sessions
 * counts once, and one whose producers are closed still counts until the connection closes. A
 * connection's first {@value #DESTINATIONS_KEPT} destinations are counted by name, the rest
 * together under {@link #OTHERS}. Thread-safe.
 */
public final class ProducingConnections implements ConnectionListener {

    /** Destinations counted by name per connection. */
    static final int DESTINATIONS_KEPT = 64;
    /** The destination name under which a connection's sends beyond {@link #DESTINATIONS_KEPT} destinations count. */
    public static final String OTHERS = "(others)";

    /** A connection's sends to one destination since it connected. */
    public record Producer(String connection, String user, String destination, DestinationKind kind, long sends) {
    }

    private record Target(String name, DestinationKind kind) {
    }

    private final Map<RemotingConnection, Map<Target, LongAdder>> producing = new ConcurrentHashMap<>();

    /** {@code send} noting the connection and destination of every request it is given. */
    public AsyncRequestProcessor counting(AsyncRequestProcessor send) {
        return (connection, request) -> {
            Map<Target, LongAdder> sends = producing.computeIfAbsent(connection, c -> new ConcurrentHashMap<>());
            // a send processed after its connection closed must not leave the connection counted
            if (!connection.isActive()) {
                producing.remove(connection);
            } else if (request.header() instanceof SendRequest s) {
                Target target = new Target(s.destination(), s.kind());
                if (!sends.containsKey(target) && sends.size() >= DESTINATIONS_KEPT) {
                    target = new Target(OTHERS, s.kind());
                }
                sends.computeIfAbsent(target, t -> new LongAdder()).increment();
            }
            return send.process(connection, request);
        };
    }

    @Override
    public void closed(RemotingConnection connection) {
        producing.remove(connection);
    }

    public int count() {
        return producing.size();
    }

    /** How many messages a connection sent since it connected, 0 for one that sent none. */
    public long sends(RemotingConnection connection) {
        Map<Target, LongAdder> sends = producing.get(connection);
        return sends == null ? 0 : sends.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Every producing connection's sends per destination, by connection then destination. */
    public List<Producer> list() {
        List<Producer> out = new ArrayList<>();
        producing.forEach((connection, sends) -> {
            Identity identity = Authentication.identityOf(connection);
            String user = identity == null ? null : identity.user();
            sends.forEach((target, count) -> out.add(new Producer(connection.remoteAddress(), user, target.name(),
                    target.kind(), count.sum())));
        });
        out.sort(Comparator.comparing(Producer::connection).thenComparing(Producer::destination)
                .thenComparing(Producer::kind));
        return out;
    }
}
