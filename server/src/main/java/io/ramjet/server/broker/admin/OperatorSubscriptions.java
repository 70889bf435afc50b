package io.ramjet.server.broker.admin;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.selector.SelectorSyntaxException;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A topic's durable subscription an operator makes without a consumer: what a topic extended onto
 * another broker group takes there from the groups that held it. It starts at the first message
 * the topic holds on this broker, not at its end as a consumer's new subscription does: the
 * subscription existed before the topic reached this group, so every message sent here since
 * is one it must receive, also those a producer sent here before the subscription was made.
 * Thread-safe.
 */
public final class OperatorSubscriptions {

    private final MessageStore store;
    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final ConsumptionLog log;
    private final DeliveryMarks marks;

    public OperatorSubscriptions(MessageStore store, DestinationTable destinations, SubscriptionTable subscriptions,
                                 ConsumptionLog log, DeliveryMarks marks) {
        this.store = store;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.log = log;
        this.marks = marks;
    }

    /**
     * Makes the subscription unless one of its name exists (left as it is, whatever its terms);
     * completes with whether it made it, once the subscription is durable.
     *
     * @throws BrokerException BAD_REQUEST for a subscription that is not a topic's durable or
     *                         shared durable one, or a selector that does not parse; NOT_FOUND
     *                         when the broker holds no topic of that name
     */
    public CompletableFuture<Boolean> createDurable(SubscriptionKey key, String selector, boolean noLocal) {
        if (key.kind() == SubscriptionKind.QUEUE || !key.kind().durable()) {
            throw new BrokerException(Refusal.BAD_REQUEST, "only a topic's durable or shared durable subscription is"
                    + " made without a consumer, not a " + key.kind() + " one");
        }
        try {
            ConsumerSelector.compile(selector);
        } catch (SelectorSyntaxException e) {
            throw new BrokerException(Refusal.BAD_REQUEST, e.getMessage());
        }
        Destination topic = destinations.find(DestinationKind.TOPIC, key.destination()).orElseThrow(() ->
                new BrokerException(Refusal.NOT_FOUND, "no topic named '" + key.destination() + "'"));
        AtomicReference<long[]> starts = new AtomicReference<>();
        SubscriptionTable.Change change = subscriptions.ensureDurable(key, selector, noLocal, k -> {
            starts.set(QueueSubscriptions.heads(store, topic));
            return starts.get();
        });
        if (!change.created()) {
            return CompletableFuture.completedFuture(false);
        }
        Subscription s = change.subscription();
        marks.reset(key);
        // one force makes the subscription and its first bounds durable, as for a consumer's
        return CompletableFuture.allOf(log.subscribedBeforeForce(s, starts.get()), marks.started(s, starts.get()))
                .thenApply(done -> true);
    }
}
