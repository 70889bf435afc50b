package io.ramjet.server.broker.processor;

import io.ramjet.model.stats.ConsumerStats;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.session.ClientSession;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.transaction.DeliveryOwners;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Which connection each attached consumer came over, so that a lost client's consumers are
 * detached (and what they held made visible again) when its connection closes, that
 * acknowledgements and releases are taken only from the connection a consumer is attached
 * over, and each consumer's selector, compiled when it subscribed. A consumer that closed while
 * its session still held some of its messages stays here, closed, until the session has
 * settled them (acknowledged, committed, released) or the connection closes. Thread-safe.
 */
public final class ConsumerRegistry implements DeliveryOwners {

    /**
     * @param unsettled     for a closed consumer, how many of its messages its session still holds; -1 while open
     * @param nonPersistent the NON_PERSISTENT messages handed to it and not acknowledged ({@link #position}):
     *                      their acknowledgements are not logged
     */
    private record Attachment(ClientSession session, SubscriptionKey key, ConsumerSelector selector,
                              int unsettled, Set<Long> nonPersistent) {

        Attachment settling(int left) {
            return new Attachment(session, key, selector, left, nonPersistent);
        }
    }

    /** NON_PERSISTENT deliveries kept per consumer at most: about twice a default prefetch. */
    static final int NON_PERSISTENT_KEPT = 2_048;

    private final Map<Long, Attachment> byConsumer = new ConcurrentHashMap<>();
    private final BiConsumer<Long, SubscriptionKey> detacher;

    /** @param detacher detaches a consumer whose connection was lost from its subscription */
    public ConsumerRegistry(BiConsumer<Long, SubscriptionKey> detacher) {
        this.detacher = detacher;
    }

    void attached(long consumer, ClientSession session, SubscriptionKey key, ConsumerSelector selector) {
        byConsumer.put(consumer, new Attachment(session, key, selector, -1, ConcurrentHashMap.newKeySet()));
    }

    /** The consumer's selector; {@link ConsumerSelector#ALL} when it is not attached. */
    ConsumerSelector selector(long consumer) {
        Attachment a = byConsumer.get(consumer);
        return a == null ? ConsumerSelector.ALL : a.selector();
    }

    @Override
    public boolean attachedOver(long consumer, ClientSession session) {
        Attachment a = byConsumer.get(consumer);
        return a != null && a.session().equals(session);
    }

    @Override
    public boolean attachedAs(long consumer, ClientSession session) {
        Attachment a = byConsumer.get(consumer);
        return a != null && (a.session().equals(session) || a.session().user().equals(session.user()));
    }

    /** The consumer closed; its session still holds {@code unsettled} of its messages. */
    void closed(long consumer, int unsettled) {
        if (unsettled <= 0) {
            byConsumer.remove(consumer);
        } else {
            byConsumer.computeIfPresent(consumer, (id, a) -> a.settling(unsettled));
        }
    }

    @Override
    public void settled(long consumer, int count) {
        byConsumer.computeIfPresent(consumer, (id, a) -> {
            if (a.unsettled() < 0) {
                return a;
            }
            int left = a.unsettled() - count;
            return left <= 0 ? null : a.settling(left);
        });
    }

    /**
     * A NON_PERSISTENT message was handed to the consumer: its acknowledgement need not be logged.
     * Deliveries ended otherwise than by ACK or RELEASE (a transaction, a recover) stay until the
     * consumer goes, so at most {@link #NON_PERSISTENT_KEPT} are kept per consumer; past that an
     * acknowledgement is logged, which is only slower.
     */
    void deliveredNonPersistent(long consumer, int queueId, long offset) {
        Attachment a = byConsumer.get(consumer);
        if (a != null && a.nonPersistent().size() < NON_PERSISTENT_KEPT) {
            a.nonPersistent().add(position(queueId, offset));
        }
    }

    /**
     * Whether the message is a NON_PERSISTENT one handed to the consumer, forgetting it: called as
     * the consumer acknowledges or releases it.
     */
    boolean takeNonPersistent(long consumer, int queueId, long offset) {
        Attachment a = byConsumer.get(consumer);
        return a != null && a.nonPersistent().remove(position(queueId, offset));
    }

    /** Queue offsets stay far below 2^48. */
    private static long position(int queueId, long offset) {
        return ((long) queueId << 48) | offset;
    }

    /** The attached consumers (closed ones still settling excepted), of one destination or (null) all. */
    public List<ConsumerStats> list(String destination) {
        List<ConsumerStats> out = new ArrayList<>();
        byConsumer.forEach((id, a) -> {
            SubscriptionKey k = a.key();
            if (a.unsettled() < 0 && (destination == null || k.destination().equals(destination))) {
                String connection = a.session() instanceof ConnectionSession c
                        ? c.connection().remoteAddress() : a.session().toString();
                out.add(new ConsumerStats(id, connection, k.destination(), k.destinationKind(), k.label(),
                        a.selector().text()));
            }
        });
        out.sort(Comparator.comparingLong(ConsumerStats::id));
        return out;
    }

    /** The session closed: its consumers are detached. */
    public void closed(ClientSession session) {
        List<Map.Entry<Long, Attachment>> lost = byConsumer.entrySet().stream()
                .filter(e -> e.getValue().session().equals(session))
                .toList();
        for (Map.Entry<Long, Attachment> e : lost) {
            if (byConsumer.remove(e.getKey(), e.getValue())) {
                detacher.accept(e.getKey(), e.getValue().key());
            }
        }
    }
}
