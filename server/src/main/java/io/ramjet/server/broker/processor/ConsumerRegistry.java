package io.ramjet.server.broker.processor;

import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.subscription.SubscriptionKey;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Which connection each attached consumer came over, so that a lost client's consumers are
 * detached (and what they held made visible again) when its connection closes, and its
 * selector, compiled when it subscribed. Thread-safe.
 */
public final class ConsumerRegistry implements ConnectionListener {

    private record Attachment(RemotingConnection connection, SubscriptionKey key, ConsumerSelector selector) {
    }

    private final Map<Long, Attachment> byConsumer = new ConcurrentHashMap<>();
    private final BiConsumer<Long, SubscriptionKey> detacher;

    /** @param detacher detaches a consumer from its subscription */
    public ConsumerRegistry(BiConsumer<Long, SubscriptionKey> detacher) {
        this.detacher = detacher;
    }

    void attached(long consumer, RemotingConnection connection, SubscriptionKey key, ConsumerSelector selector) {
        byConsumer.put(consumer, new Attachment(connection, key, selector));
    }

    /** The consumer's selector; {@link ConsumerSelector#ALL} when it is not attached. */
    ConsumerSelector selector(long consumer) {
        Attachment a = byConsumer.get(consumer);
        return a == null ? ConsumerSelector.ALL : a.selector();
    }

    void detached(long consumer) {
        byConsumer.remove(consumer);
    }

    @Override
    public void closed(RemotingConnection connection) {
        List<Map.Entry<Long, Attachment>> lost = byConsumer.entrySet().stream()
                .filter(e -> e.getValue().connection() == connection)
                .toList();
        for (Map.Entry<Long, Attachment> e : lost) {
            if (byConsumer.remove(e.getKey(), e.getValue())) {
                detacher.accept(e.getKey(), e.getValue().key());
            }
        }
    }
}
