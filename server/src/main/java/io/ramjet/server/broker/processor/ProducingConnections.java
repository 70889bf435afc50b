package io.ramjet.server.broker.processor;

import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingConnection;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open client connections that have sent at least one message: the broker's count of
 * producers. The wire carries no producer id (a JMS {@code MessageProducer} is the client's
 * own), so a connection with several producing sessions counts once, and one whose producers
 * are closed still counts until the connection closes. Thread-safe.
 */
public final class ProducingConnections implements ConnectionListener {

    private final Set<RemotingConnection> producing = ConcurrentHashMap.newKeySet();

    /** {@code send} noting the connection of every request it is given. */
    public AsyncRequestProcessor counting(AsyncRequestProcessor send) {
        return (connection, request) -> {
            // a send processed after its connection closed must not leave the connection counted
            if (producing.add(connection) && !connection.isActive()) {
                producing.remove(connection);
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
}
