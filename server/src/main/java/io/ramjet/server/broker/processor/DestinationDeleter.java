package io.ramjet.server.broker.processor;

import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.durability.ConsumptionLog;
import io.ramjet.server.broker.subscription.SubscriptionTable;

/**
 * Deletes a destination with its subscriptions, durably for a permanent one, and tells the
 * broker so the NameServers learn of it. Its messages stay in the log until retention. Thread-safe.
 */
public final class DestinationDeleter {

    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final ConsumptionLog log;
    private final Runnable onChanged;

    public DestinationDeleter(DestinationTable destinations, SubscriptionTable subscriptions, ConsumptionLog log,
                              Runnable onChanged) {
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
        if (!d.temporary()) {
            log.destinationDeleted(d).join();
        }
        onChanged.run();
        return true;
    }
}
