package io.ramjet.provider.client;

import io.ramjet.model.MessagePosition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The one interface between the JMS façade and the brokers: everything a connection asks, in
 * terms of info objects, never JMS objects or wire records. Futures fail only with a
 * {@link ClientException}, which says whether the request may have taken effect; what can be
 * retried, resent or rediscovered has been, below this interface, so the façade sees outcomes
 * only. One instance per JMS connection. Thread-safe.
 */
public interface RamjetClient extends BrokerRequests {

    /**
     * Sends one message to the queue the producer sticks to ({@code queueChoice}, reduced modulo
     * the queue count); when its broker turns out to be gone, once more to another master.
     */
    CompletableFuture<Void> send(OutgoingMessage message, int queueChoice);

    /**
     * Sends one message as part of transaction {@code transactionId} (nonzero): the broker keeps
     * it as a half record until the transaction ends. {@code touching} is told the broker's
     * address once the message is handed to that broker's connection (so a request written there
     * later goes behind it), or once the connection failed to open, always before the send
     * completes: a transaction knows every broker that may hold its records, even when the send
     * fails. Never resent: a failed send dooms its
     * transaction.
     */
    CompletableFuture<Void> sendInTransaction(OutgoingMessage message, int queueChoice, long transactionId,
                                              Consumer<String> touching);

    /**
     * Starts feeding a consumer from every broker that hosts its destination into {@code sink},
     * until the feed is stopped, following brokers that join, restart or start hosting the
     * destination. Fails, having undone what it started, when a broker refuses the subscription
     * or none can be reached.
     */
    ConsumerFeed consume(ConsumerInfo consumer, FeedSink sink) throws ClientException;

    /**
     * As {@link BrokerRequests#release}, and the broker applies the releases of one attachment in
     * the order they are called (each is sent once the one before is answered), so that the
     * messages of a group become visible again in their order.
     */
    @Override
    CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions, boolean countDelivery);

    /**
     * Releases deliveries of any attachments: one request per attachment, naming its messages in
     * the order given; completes once every request is answered.
     */
    default CompletableFuture<Void> release(List<Delivery> deliveries, boolean countDelivery) {
        Map<ConsumerInfo, List<MessagePosition>> byAttachment = new LinkedHashMap<>();
        for (Delivery d : deliveries) {
            byAttachment.computeIfAbsent(d.consumer(), c -> new ArrayList<>()).add(d.position());
        }
        return CompletableFuture.allOf(byAttachment.entrySet().stream()
                .map(a -> release(a.getKey(), a.getValue(), countDelivery))
                .toArray(CompletableFuture[]::new));
    }

    /**
     * Records a local transaction's commit decision on its coordinator broker, with what it
     * consumed from there. Fails with {@link ClientException.Outcome#CERTAINLY_NOT_APPLIED} only
     * when the transaction is certainly not committed there (so it rolls back everywhere), else
     * the outcome is unknown.
     */
    CompletableFuture<Void> commitTransaction(String coordinator, long transactionId, List<ConsumedMessages> consumed);
}
