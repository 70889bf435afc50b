package io.ramjet.server.broker.delivery;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.message.TagSignature;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.storage.AppendResult;
import io.ramjet.storage.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Moves a message delivered more than the maximum number of times to the dead-letter queue of
 * its destination (a queue named prefix + destination name, created when first needed), then
 * acknowledges it on its subscription once the copy is durable, so a crash between the two
 * leaves it in both places rather than in neither. The copy carries where it came from and why
 * in vendor properties ({@link #ORIGINAL_DESTINATION}, {@link #ORIGINAL_DESTINATION_KIND},
 * {@link #REASON}), so an operator can move it back.
 */
public final class DeadLetterQueue {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterQueue.class);
    /** Vendor property of a dead letter: the name of the destination it was consumed from. */
    public static final String ORIGINAL_DESTINATION = "JMS_RamjetOriginalDestination";
    /** Vendor property of a dead letter: QUEUE or TOPIC, the kind of its original destination. */
    public static final String ORIGINAL_DESTINATION_KIND = "JMS_RamjetOriginalDestinationKind";
    /** Vendor property of a dead letter: why it was moved, for a human. */
    public static final String REASON = "JMS_RamjetDeadLetterReason";

    private final MessageStore store;
    private final DestinationResolver destinations;
    private final String prefix;
    private final int queueCount;
    private final BiConsumer<Subscription, Delivery> acknowledger;
    private final DiscardCounts discards;

    /**
     * @param acknowledger acknowledges a delivery durably (in memory and in the log)
     * @param discards     counts each message moved, for its original destination
     */
    public DeadLetterQueue(MessageStore store, DestinationResolver destinations, String prefix, int queueCount,
                           BiConsumer<Subscription, Delivery> acknowledger, DiscardCounts discards) {
        this.store = store;
        this.discards = discards;
        this.destinations = destinations;
        this.prefix = prefix;
        this.queueCount = queueCount;
        this.acknowledger = acknowledger;
    }

    /** The dead-letter queue's name for a destination. */
    public String nameFor(Destination destination) {
        return prefix + destination.name();
    }

    /**
     * Moves a message claimed by {@code consumer} for that purpose; if the copy cannot be
     * written, the message is released uncounted (nobody saw it) and the move is tried again at
     * a later fetch.
     */
    void moveAndAck(Destination from, Subscription subscription, long consumer, Delivery delivery,
                    MessageRecordView record) {
        Destination dlq = destinations.ensure(new Destination(nameFor(from), DestinationKind.QUEUE, queueCount, false));
        MessageRecord original = record.toRecord();
        int keptFlags = original.flags() & (RecordFlags.NON_PERSISTENT | RecordFlags.LARGE);
        MessageHeaders headers = MessagePropertiesCodec.decode(original.properties())
                .property(ORIGINAL_DESTINATION, from.name())
                .property(ORIGINAL_DESTINATION_KIND, from.kind().name())
                .property(REASON, "delivered " + delivery.countedBefore() + " times, the most the broker allows");
        MessageRecord copy = new MessageRecord(RecordFlags.of(RecordType.NORMAL, keptFlags), dlq.storageName(),
                delivery.queueId() % dlq.queueCount(), -1, original.bornTimestamp(), 0,
                TagSignature.DEFAULT.signatureOf(headers), MessagePropertiesCodec.encode(headers), original.body());
        LOG.info("{}/{} offset {} delivered {} times: moving it to {}", from.storageName(), delivery.queueId(),
                delivery.offset(), delivery.countedBefore(), dlq.name());
        CompletableFuture<AppendResult> append;
        try {
            append = store.append(copy, true);
        } catch (RuntimeException e) {
            append = CompletableFuture.failedFuture(e);
        }
        append.whenComplete((result, failure) -> {
            if (failure != null) {
                LOG.error("could not move {}/{} offset {} to {}; it stays in its queue and is tried again",
                        from.storageName(), delivery.queueId(), delivery.offset(), dlq.name(), failure);
                subscription.withCursor(delivery.queueId(),
                        cursor -> cursor.release(delivery.offset(), consumer, false));
            } else {
                acknowledger.accept(subscription, delivery);
                discards.deadLettered(from.storageName());
            }
        });
    }
}
