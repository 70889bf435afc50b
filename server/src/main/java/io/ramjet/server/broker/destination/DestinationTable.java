package io.ramjet.server.broker.destination;

import io.ramjet.model.DestinationKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The destinations a broker owns, keyed by kind and name. Destinations are created explicitly
 * or, when the policy allows, on first use. Thread-safe. In memory: the broker persists
 * creations and deletions as SUBSCRIPTION-class records in the CommitLog and restores them.
 */
public final class DestinationTable {

    private final Map<String, Destination> byStorageName = new ConcurrentHashMap<>();
    private final boolean autoCreate;
    private final int defaultQueueCount;

    public DestinationTable(boolean autoCreate, int defaultQueueCount) {
        if (defaultQueueCount < 1) {
            throw new IllegalArgumentException("default queue count must be positive");
        }
        this.autoCreate = autoCreate;
        this.defaultQueueCount = defaultQueueCount;
    }

    /** Whether a destination may be created on first use (or by a client's CREATE_DESTINATION). */
    public boolean autoCreate() {
        return autoCreate;
    }

    public Optional<Destination> find(DestinationKind kind, String name) {
        return Optional.ofNullable(byStorageName.get(Destination.storageName(kind, name)));
    }

    /**
     * The destination of that kind and name, created with the default queue count when the
     * policy allows.
     *
     * @throws UnknownDestinationException when it does not exist and auto-creation is off
     */
    public Destination findOrCreate(DestinationKind kind, String name) {
        Destination existing = byStorageName.get(Destination.storageName(kind, name));
        if (existing != null) {
            return existing;
        }
        if (!autoCreate) {
            throw new UnknownDestinationException(kind, name);
        }
        return create(new Destination(name, kind, defaultQueueCount, false));
    }

    /** Creates a destination, or returns the existing one of that kind and name. */
    public Destination create(Destination destination) {
        return byStorageName.computeIfAbsent(destination.storageName(), k -> destination);
    }

    public Optional<Destination> delete(DestinationKind kind, String name) {
        return Optional.ofNullable(byStorageName.remove(Destination.storageName(kind, name)));
    }

    public List<Destination> list() {
        return List.copyOf(byStorageName.values());
    }
}
