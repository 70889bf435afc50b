package io.ramjet.model.stats;

import io.ramjet.model.DestinationKind;
import java.util.List;
import java.util.Objects;

/**
 * One message queue of one subscription as its deliveries stand at the moment of asking: what
 * the ConsumeQueue holds, how far the subscription's cursor got, and each consumer's share.
 * Every offset below {@code lowWater} is acknowledged; from {@code readOffset} on, nothing was
 * offered yet; in between, {@code pending} messages are not acknowledged, {@code inFlight} of them
 * held by consumers, the others visible again.
 *
 * @param subscription  the subscription's kind and name, as {@link ConsumerStats#subscription()}
 * @param minOffset     the lowest offset the ConsumeQueue still holds
 * @param maxOffset     the offset the ConsumeQueue's next entry gets (its entries dispatched so far)
 * @param firstVisible  the lowest pending offset no consumer holds, -1 for none
 * @param consumers     the attached consumers and those that hold or wait for messages of the queue
 */
public record QueueDeliveryState(String destination, DestinationKind destinationKind, String subscription,
                                 int queueId, long minOffset, long maxOffset, long lowWater, long readOffset,
                                 long pending, long inFlight, long firstVisible,
                                 List<ConsumerDeliveryState> consumers) {

    public QueueDeliveryState {
        Objects.requireNonNull(destination, "destination");
        consumers = List.copyOf(consumers);
    }
}
