package io.ramjet.server.broker.session;

import io.ramjet.server.broker.destination.Destination;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The temporary destinations and the session each belongs to: only that session may consume
 * from one, and it is deleted when that session closes. Never logged or snapshotted: every
 * connection is gone after a restart, and so are they. Thread-safe.
 */
public final class TemporaryDestinations {

    private final Map<String, ClientSession> owners = new ConcurrentHashMap<>();
    private final Consumer<Destination> deleter;
    private final Map<String, Destination> byStorageName = new ConcurrentHashMap<>();

    /** @param deleter deletes a destination and its subscriptions */
    public TemporaryDestinations(Consumer<Destination> deleter) {
        this.deleter = deleter;
    }

    public void created(Destination destination, ClientSession owner) {
        owners.put(destination.storageName(), owner);
        byStorageName.put(destination.storageName(), destination);
        if (!owner.isOpen()) {
            closed(owner);
        }
    }

    /** Whether {@code session} may consume from {@code destination}. */
    public boolean mayConsume(Destination destination, ClientSession session) {
        if (!destination.temporary()) {
            return true;
        }
        return session.equals(owners.get(destination.storageName()));
    }

    /** The session closed: its temporary destinations are deleted. */
    public void closed(ClientSession session) {
        List<String> owned = owners.entrySet().stream()
                .filter(e -> e.getValue().equals(session))
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
