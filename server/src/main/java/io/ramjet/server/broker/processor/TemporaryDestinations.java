package io.ramjet.server.broker.processor;

import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.destination.Destination;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The temporary destinations and the connection each belongs to: only that connection may
 * consume from one, and it is deleted when that connection closes. Never logged or
 * snapshotted: every connection is gone after a restart, and so are they. Thread-safe.
 */
public final class TemporaryDestinations implements ConnectionListener {

    private final Map<String, RemotingConnection> owners = new ConcurrentHashMap<>();
    private final Consumer<Destination> deleter;
    private final Map<String, Destination> byStorageName = new ConcurrentHashMap<>();

    /** @param deleter deletes a destination and its subscriptions */
    public TemporaryDestinations(Consumer<Destination> deleter) {
        this.deleter = deleter;
    }

    void created(Destination destination, RemotingConnection owner) {
        owners.put(destination.storageName(), owner);
        byStorageName.put(destination.storageName(), destination);
        if (!owner.isActive()) {
            closed(owner);
        }
    }

    /** Whether {@code connection} may consume from {@code destination}. */
    boolean mayConsume(Destination destination, RemotingConnection connection) {
        if (!destination.temporary()) {
            return true;
        }
        return owners.get(destination.storageName()) == connection;
    }

    @Override
    public void closed(RemotingConnection connection) {
        List<String> owned = owners.entrySet().stream()
                .filter(e -> e.getValue() == connection)
                .map(Map.Entry::getKey)
                .toList();
        for (String name : owned) {
            owners.remove(name);
            Destination d = byStorageName.remove(name);
            if (d != null) {
                deleter.accept(d);
            }
        }
    }
}
