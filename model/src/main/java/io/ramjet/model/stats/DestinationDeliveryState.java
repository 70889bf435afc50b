package io.ramjet.model.stats;

import java.util.List;

/**
 * How a destination's deliveries stand on one broker at the moment of asking (the admin command
 * {@code ADMIN_DELIVERY_STATE} answers it): the broker's CommitLog positions (written, forced,
 * dispatched into the ConsumeQueues: a gap between the last two is records waiting for a force or
 * for the in-sync slaves) and the state of every message queue of every subscription of it.
 */
public record DestinationDeliveryState(long writtenOffset, long flushedOffset, long dispatchedOffset,
                                       List<QueueDeliveryState> queues) {

    public DestinationDeliveryState {
        queues = List.copyOf(queues);
    }
}
