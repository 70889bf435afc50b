package io.ramjet.server.broker.subscription;

import io.ramjet.model.DestinationKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Every subscription of a broker and the Jakarta Messaging rules for finding, sharing,
 * replacing and deleting them (3.1 sections 8.3 and 8.4):
 * <ul>
 *   <li>a queue has one subscription, shared by all its consumers whatever their selectors;</li>
 *   <li>a non-durable topic consumer has its own, deleted when it detaches;</li>
 *   <li>durable subscriptions, shared or not, share one namespace per client id; asking for one
 *       with another topic, selector or noLocal replaces it when it has no consumer;</li>
 *   <li>a shared non-durable subscription lives while it has consumers.</li>
 * </ul>
 *
 * <p>Thread-safe (one lock for the table; each subscription has its own for consumption). In
 * memory: the broker logs what {@link Change} says happened and replays it after a restart.
 */
public final class SubscriptionTable {

    /** What a subscribe did, so that the broker can log durable changes. */
    public record Change(Subscription subscription, boolean created, Subscription replaced) {
    }

    private final Map<String, Subscription> byName = new HashMap<>();
    private final boolean rebalanceGroupsOnJoin;

    /** A table whose shared subscriptions keep their message groups when a consumer joins. */
    public SubscriptionTable() {
        this(false);
    }

    /** @param rebalanceGroupsOnJoin whether a consumer joining a shared subscription frees its message groups */
    public SubscriptionTable(boolean rebalanceGroupsOnJoin) {
        this.rebalanceGroupsOnJoin = rebalanceGroupsOnJoin;
    }

    /**
     * Attaches {@code consumer} to the subscription {@code key} names, creating or replacing it
     * as the rules say. {@code startOffsets} gives each message queue's starting offset for a new
     * subscription (the tail for topics, the head for queues).
     *
     * @throws SubscriptionConflictException when the rules refuse the consumer
     */
    public synchronized Change subscribe(SubscriptionKey key, String selector, boolean noLocal, long consumer,
                                         Function<SubscriptionKey, long[]> startOffsets) {
        String name = namespaceKey(key);
        Subscription existing = byName.get(name);
        Subscription replaced = null;
        if (existing != null && !reusable(existing, key, selector, noLocal)) {
            if (existing.hasConsumers()) {
                throw new SubscriptionConflictException("subscription '" + key.name() + "' is in use with other terms"
                        + " (destination, selector or noLocal); close its consumers first");
            }
            byName.remove(name);
            replaced = existing;
            existing = null;
        }
        boolean created = existing == null;
        Subscription s = created ? new Subscription(key, selector, noLocal, startOffsets.apply(key)) : existing;
        if (!s.attach(consumer)) {
            throw new SubscriptionConflictException("durable subscription '" + key.name() + "' of client '" + key.clientId()
                    + "' already has an active consumer");
        }
        if (rebalanceGroupsOnJoin && key.kind().shared()) {
            s.releaseGroupOwners();
        }
        byName.put(name, s);
        return new Change(s, created, replaced);
    }

    /**
     * Detaches a consumer whose connection was lost; a subscription that dies with its last
     * consumer (a non-durable one) is removed. Returns what the consumer held, made visible
     * again with the delivery counted.
     */
    public synchronized List<Delivery> unsubscribeConsumer(SubscriptionKey key, long consumer) {
        return detach(key, s -> s.detach(consumer));
    }

    /**
     * Detaches a consumer that closed: as {@link #unsubscribeConsumer}, but what the application
     * never saw comes back uncounted and what its session holds ({@code kept}) stays with it.
     */
    public synchronized List<Delivery> closeConsumer(SubscriptionKey key, long consumer, Map<Integer, Set<Long>> kept) {
        return detach(key, s -> s.close(consumer, kept));
    }

    private List<Delivery> detach(SubscriptionKey key, Function<Subscription, List<Delivery>> detach) {
        String name = namespaceKey(key);
        Subscription s = byName.get(name);
        if (s == null) {
            return List.of();
        }
        List<Delivery> released = detach.apply(s);
        if (!key.kind().durable() && !s.hasConsumers()) {
            byName.remove(name);
        }
        return released;
    }

    /**
     * Deletes a durable subscription by client id and name (JMS {@code unsubscribe}).
     *
     * @return the deleted subscription, empty when there is none of that name
     * @throws SubscriptionConflictException when it has active consumers
     */
    public Optional<Subscription> deleteDurable(String clientId, String name) {
        return deleteDurable(clientId, name, s -> { });
    }

    /**
     * {@link #deleteDurable(String, String)} once {@code permit} has accepted the subscription
     * found; what it throws leaves the subscription in place.
     */
    public synchronized Optional<Subscription> deleteDurable(String clientId, String name,
                                                             Consumer<Subscription> permit) {
        String key = durableKey(clientId, name);
        Subscription s = byName.get(key);
        if (s == null) {
            return Optional.empty();
        }
        permit.accept(s);
        if (s.hasConsumers()) {
            throw new SubscriptionConflictException("durable subscription '" + name + "' has an active consumer");
        }
        byName.remove(key);
        return Optional.of(s);
    }

    /** Removes every subscription of a destination (the destination was deleted). */
    public synchronized List<Subscription> deleteAll(DestinationKind kind, String destination) {
        List<Subscription> removed = new ArrayList<>();
        byName.values().removeIf(s -> {
            boolean match = s.key().destinationKind() == kind && s.key().destination().equals(destination);
            if (match) {
                removed.add(s);
            }
            return match;
        });
        return removed;
    }

    /**
     * A queue's subscription, created without a consumer when none ever subscribed (an operator
     * purges or moves messages of a queue nobody consumed yet).
     */
    public synchronized Change ensureQueue(String queue, Function<SubscriptionKey, long[]> startOffsets) {
        return ensure(SubscriptionKey.queue(queue), null, false, startOffsets);
    }

    /**
     * A topic's durable (or shared durable) subscription, created without a consumer when none of
     * its name exists (an operator extends the topic onto this broker's group); one that exists
     * is left as it is, whatever its terms.
     */
    public synchronized Change ensureDurable(SubscriptionKey key, String selector, boolean noLocal,
                                             Function<SubscriptionKey, long[]> startOffsets) {
        if (key.kind() == SubscriptionKind.QUEUE || !key.kind().durable()) {
            throw new IllegalArgumentException("not a durable topic subscription: " + key);
        }
        return ensure(key, selector, noLocal, startOffsets);
    }

    private Change ensure(SubscriptionKey key, String selector, boolean noLocal,
                          Function<SubscriptionKey, long[]> startOffsets) {
        Subscription existing = byName.get(namespaceKey(key));
        if (existing != null) {
            return new Change(existing, false, null);
        }
        Subscription s = new Subscription(key, selector, noLocal, startOffsets.apply(key));
        byName.put(namespaceKey(key), s);
        return new Change(s, true, null);
    }

    /** The durable subscription of that client id and name. */
    public synchronized Optional<Subscription> findDurable(String clientId, String name) {
        return Optional.ofNullable(byName.get(durableKey(clientId, name)));
    }

    public synchronized Optional<Subscription> find(SubscriptionKey key) {
        return Optional.ofNullable(byName.get(namespaceKey(key)));
    }

    /** Puts back a subscription restored from a snapshot or the log. */
    public synchronized void restore(Subscription s) {
        byName.put(namespaceKey(s.key()), s);
    }

    public synchronized List<Subscription> all() {
        return List.copyOf(byName.values());
    }

    public synchronized List<Subscription> of(String destination) {
        List<Subscription> out = new ArrayList<>();
        for (Subscription s : byName.values()) {
            if (s.key().destination().equals(destination)) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * A queue's subscription serves every consumer whatever its selector (each consumer's
     * selector is its own); a topic subscription is reused only on the same terms.
     */
    private static boolean reusable(Subscription existing, SubscriptionKey key, String selector, boolean noLocal) {
        return existing.key().equals(key)
                && (key.kind() == SubscriptionKind.QUEUE || existing.sameTerms(selector, noLocal));
    }

    private static String namespaceKey(SubscriptionKey key) {
        return switch (key.kind()) {
            case QUEUE -> "Q|" + key.destination();
            case TOPIC -> "T|" + key.name();
            case SHARED -> "S|" + key.clientId() + "|" + key.name();
            case DURABLE, SHARED_DURABLE -> durableKey(key.clientId(), key.name());
        };
    }

    private static String durableKey(String clientId, String name) {
        return "D|" + clientId + "|" + name;
    }
}
