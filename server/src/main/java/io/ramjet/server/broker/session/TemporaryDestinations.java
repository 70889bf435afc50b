package io.ramjet.server.broker.session;

import io.ramjet.server.broker.destination.Destination;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The temporary destinations and the session each belongs to: only that session may consume
 * from one, and it is deleted when that session closes. The broker names them
 * {@code TMP.<connection>.<n>}: a random tag per connection (so no client can guess or take the
 * name of another's) and a count; no permanent destination can take a name of that namespace
 * ({@link io.ramjet.server.broker.destination.Destination#validateClientName}). Never logged or
 * snapshotted: every connection is gone after a restart, and so are they. Thread-safe.
 */
public final class TemporaryDestinations {

    private final Map<String, ClientSession> owners = new ConcurrentHashMap<>();
    private final Consumer<Destination> deleter;
    private final Map<String, Destination> byStorageName = new ConcurrentHashMap<>();
    private final Map<ClientSession, Namer> namers = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    /** The names of one connection's temporary destinations. */
    private record Namer(String tag, AtomicLong count) {
        String next() {
            return Destination.TEMPORARY_PREFIX + tag + "." + count.incrementAndGet();
        }
    }

    /** @param deleter deletes a destination and its subscriptions */
    public TemporaryDestinations(Consumer<Destination> deleter) {
        this.deleter = deleter;
    }

    /** A new name for a temporary destination of {@code owner}, in the temporary namespace. */
    public String newName(ClientSession owner) {
        return namers.computeIfAbsent(owner, s -> new Namer(HexFormat.of().toHexDigits(random.nextLong()),
                new AtomicLong())).next();
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
        namers.remove(session);
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
