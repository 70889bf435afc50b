package io.ramjet.server.broker.processor;

import io.ramjet.server.broker.delivery.DiscardCounts;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

/**
 * Deletes a destination with its subscriptions and its ConsumeQueues, and tells the broker so the
 * NameServers learn of it. A permanent one is deleted durably: its DELETE_DESTINATION record is
 * logged, and the store's dispatch of that record deletes the queue files (see
 * {@code BrokerDispatchListener}), again during recovery if need be. A temporary one is never
 * logged: its queue files are deleted at once, and what a crash leaves of them is deleted when
 * the broker starts, as queues of a destination it does not have. Its messages stay in the log
 * until retention. Thread-safe.
 */
public final class DestinationDeleter {

    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final ConsumptionLog log;
    private final Runnable onChanged;
    private final MessageStore store;
    private final DiscardCounts discards;

    public DestinationDeleter(DestinationTable destinations, SubscriptionTable subscriptions, ConsumptionLog log,
                              MessageStore store, DiscardCounts discards, Runnable onChanged) {
        this.store = store;
        this.discards = discards;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.log = log;
        this.onChanged = onChanged;
    }

    /** @return false when it did not exist */
    public boolean delete(Destination d) {
        if (destinations.delete(d.kind(), d.name()).isEmpty()) {
            return false;
        }
        subscriptions.deleteAll(d.kind(), d.name());
        discards.forget(d.storageName());
        if (d.temporary()) {
            store.deleteQueues(d.storageName());
        } else {
            log.destinationDeleted(d).join();
        }
        onChanged.run();
        return true;
    }
}
