package io.ramjet.server.broker.destination;

import io.ramjet.model.DestinationKind;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;

import java.util.function.Consumer;

/**
 * Finds the destination a command names, creating it when the policy allows, and tells the
 * broker about a creation so that the NameServers learn of it at once. Thread-safe.
 */
public final class DestinationResolver {

    private final DestinationTable destinations;
    private final Consumer<Destination> onCreated;

    /** @param onCreated told about each destination created, to log it and announce it */
    public DestinationResolver(DestinationTable destinations, Consumer<Destination> onCreated) {
        this.destinations = destinations;
        this.onCreated = onCreated;
    }

    /**
     * @throws BrokerException UNKNOWN_DESTINATION when absent and not auto-created, or
     *                                  when the name is not one a client may use (saying why)
     */
    public Destination resolve(DestinationKind kind, String name) {
        Destination existing = destinations.find(kind, name).orElse(null);
        if (existing != null) {
            return existing;
        }
        checkClientName(name);
        try {
            Destination created = destinations.findOrCreate(kind, name);
            onCreated.accept(created);
            return created;
        } catch (UnknownDestinationException e) {
            throw new BrokerException(Refusal.UNKNOWN_DESTINATION, e.getMessage());
        }
    }

    /**
     * Refuses a name a client may not use, before anything is created: UNKNOWN_DESTINATION
     * (an InvalidDestinationException for a JMS client), with the reason.
     */
    public static void checkClientName(String name) {
        try {
            Destination.validateClientName(name);
        } catch (IllegalArgumentException e) {
            throw new BrokerException(Refusal.UNKNOWN_DESTINATION, "invalid destination name: "
                    + e.getMessage());
        }
    }

    /** The destination of that kind and name, created as given whatever the auto-creation policy. */
    public Destination ensure(Destination wanted) {
        Destination existing = destinations.find(wanted.kind(), wanted.name()).orElse(null);
        if (existing != null) {
            return existing;
        }
        Destination created = destinations.create(wanted);
        onCreated.accept(created);
        return created;
    }

    /**
     * Creates a permanent destination an operator asks for, whatever the auto-creation policy, under
     * a name a client may use; an existing one is left as it is.
     *
     * @param queueCount its message queues, 0 or less for {@code defaultQueueCount}
     * @return whether it was created (false: it existed)
     * @throws BrokerException UNKNOWN_DESTINATION when the name is not one a client may use
     */
    public boolean createPermanent(DestinationKind kind, String name, int queueCount, int defaultQueueCount) {
        checkClientName(name);
        boolean existed = destinations.find(kind, name).isPresent();
        ensure(new Destination(name, kind, queueCount <= 0 ? defaultQueueCount : queueCount, false));
        return !existed;
    }

    /** The destination if it exists. */
    public Destination existing(DestinationKind kind, String name) {
        return destinations.find(kind, name).orElseThrow(() -> new BrokerException(
                Refusal.UNKNOWN_DESTINATION, "no " + kind + " named '" + name + "'"));
    }

    public DestinationTable table() {
        return destinations;
    }
}
