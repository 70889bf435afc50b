package io.ramjet.model.stats;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/**
 * One destination as an operator sees it. The counts are of the broker's message queues now, not
 * rates: a Prometheus scrape or {@code ramjet queue stat} samples them.
 *
 * @param enqueued      messages that entered its ConsumeQueues since it was created (delayed ones when due)
 * @param ready         for a queue, messages waiting to be delivered (never offered, or visible again)
 * @param inFlight      for a queue, messages handed to a consumer and not yet acknowledged
 * @param redelivering  of the ready ones, those delivered before (rolled back, recovered, a lost consumer)
 * @param delayed       messages waiting in the timer store for their delivery time
 * @param acknowledged  for a queue, {@code enqueued} less what is still to consume (acknowledged,
 *                      purged, expired, moved, dead-lettered or dropped by retention)
 * @param consumers     consumers attached to its subscriptions
 * @param subscriptions its subscriptions (one for a queue once a consumer came)
 */
public record DestinationStats(String name, DestinationKind kind, boolean temporary, int queueCount, long enqueued,
                               long ready, long inFlight, long redelivering, long delayed, long acknowledged,
                               int consumers, int subscriptions) {

    public DestinationStats {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }
}
