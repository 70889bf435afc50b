package io.ramjet.server.broker.admin;

import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An operator's purge: the broker acknowledges every message a queue or durable subscription
 * still has to consume and no consumer holds, in its cursors at once and then in the log, as a
 * consumer's acknowledgements are. Messages in flight stay with their consumers. Thread-safe.
 */
public final class Purge {

    private final MessageStore store;
    private final QueueSubscriptions queues;
    private final SubscriptionTable subscriptions;
    private final ConsumptionLog log;

    public Purge(MessageStore store, QueueSubscriptions queues, SubscriptionTable subscriptions, ConsumptionLog log) {
        this.store = store;
        this.queues = queues;
        this.subscriptions = subscriptions;
        this.log = log;
    }

    /** Completes, once the acknowledgements are durable, with how many messages were purged. */
    public CompletableFuture<Long> queue(String name) {
        return purge(queues.of(name));
    }

    public CompletableFuture<Long> durable(String clientId, String name) {
        Subscription s = subscriptions.findDurable(clientId, name).orElseThrow(() -> new BrokerException(
                Refusal.NOT_FOUND, "no durable subscription '" + name + "' of client '" + clientId + "'"));
        return purge(s);
    }

    private CompletableFuture<Long> purge(Subscription s) {
        List<Delivery> purged = new ArrayList<>();
        for (int q = 0; q < s.queueCount(); q++) {
            int queueId = q;
            long max = store.maxQueueOffset(s.key().storageName(), q);
            for (long offset : s.withCursor(q, cursor -> cursor.purge(max))) {
                purged.add(new Delivery(queueId, offset, 0));
            }
        }
        return log.acked(s, purged).thenApply(done -> (long) purged.size());
    }
}
