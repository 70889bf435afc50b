package io.ramjet.provider.client;

import io.ramjet.model.MessagePosition;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.BrowseRequest;
import io.ramjet.protocol.command.BrowseResponse;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.command.ReleaseBatchRequest;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.provider.client.ClientException.Reason;
import io.ramjet.provider.client.Routes.Route;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A consumer's requests to the broker it is attached to ({@link ConsumerInfo#brokerAddress()}):
 * subscribe, pull, acknowledge, release, close; and a queue browser's pages. A request for a
 * consumer not attached anywhere fails as NOT_ATTACHED without being sent.
 */
final class ConsumerRequests {

    private final RemotingClient remoting;
    private final Routes routes;
    private final Duration timeout;

    ConsumerRequests(RemotingClient remoting, Routes routes, Duration timeout) {
        this.remoting = remoting;
        this.routes = routes;
        this.timeout = timeout;
    }

    /**
     * The selector travels with every subscription: the broker compiles it per consumer (a
     * queue's consumers share one subscription, each with its own selector) and filters with it;
     * the client checks it again on every message.
     */
    CompletableFuture<ConsumerInfo> subscribe(ConsumerInfo consumer) {
        String selector = consumer.selector();
        CompletableFuture<String> address = consumer.brokerAddress() != null
                ? CompletableFuture.completedFuture(consumer.brokerAddress())
                : routes.first(consumer.subscription().destination(), consumer.subscription().destinationKind())
                        .thenApply(Route::address);
        ConsumerInfo attachment = consumer.withConsumerId(ConsumerIds.next());
        return RemotingFailures.translated(address.thenCompose(at -> Frames.invoke(remoting, at, CommandCode.SUBSCRIBE,
                new SubscribeRequest(consumer.subscription(), selector, consumer.noLocal(), attachment.consumerId()),
                timeout).thenApply(done -> attachment.attachedTo(at))));
    }

    CompletableFuture<Void> touch(ConsumerInfo consumer) {
        String address = consumer.brokerAddress();
        if (address == null) {
            return CompletableFuture.completedFuture(null);
        }
        return RemotingFailures.translated(Frames.invoke(remoting, address, CommandCode.HEARTBEAT, null, timeout));
    }

    CompletableFuture<List<Delivery>> pull(ConsumerInfo consumer, int maxMessages, long holdMillis) {
        String address = consumer.brokerAddress();
        if (address == null) {
            return notSubscribed(consumer);
        }
        PullRequest request = new PullRequest(consumer.consumerId(), consumer.subscription(), maxMessages, holdMillis);
        return RemotingFailures.translated(remoting.invoke(address, Frame.request(CommandCode.PULL, request),
                        timeout.plusMillis(holdMillis))
                .thenApply(response -> {
                    try {
                        return deliveries(consumer, response);
                    } finally {
                        Frames.release(response);
                    }
                }));
    }

    private static List<Delivery> deliveries(ConsumerInfo consumer, Frame response) {
        return records(consumer, response.header(PullResponse.class).messages(), response);
    }

    /** The messages whose records follow one another in the response body. */
    private static List<Delivery> records(ConsumerInfo consumer, List<PulledMessage> pulled, Frame response) {
        List<Delivery> deliveries = new ArrayList<>(pulled.size());
        ByteBuffer records = ByteBuffer.wrap(response.bodyArray());
        int at = 0;
        for (PulledMessage p : pulled) {
            MessageRecordView record = MessageRecordView.wrap(records.slice(at, p.recordSize()));
            at += p.recordSize();
            deliveries.add(new Delivery(consumer, new MessagePosition(p.queueId(), p.queueOffset()),
                    p.deliveryCount(), record.properties(), record.body(),
                    RecordFlags.isSet(record.flags(), RecordFlags.LARGE)));
        }
        return deliveries;
    }

    CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions) {
        return toConsumerBroker(consumer, CommandCode.ACK,
                new AckRequest(consumer.consumerId(), consumer.subscription(), positions));
    }

    CompletableFuture<Void> lazyAck(ConsumerInfo consumer, List<MessagePosition> positions) {
        return toConsumerBroker(consumer, CommandCode.LAZY_ACK,
                new AckRequest(consumer.consumerId(), consumer.subscription(), positions));
    }

    CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions,
                                    boolean countDelivery) {
        return toConsumerBroker(consumer, CommandCode.RELEASE_BATCH, new ReleaseBatchRequest(consumer.consumerId(),
                consumer.subscription(), positions, countDelivery))
                .exceptionally(failure -> {
                    // some not delivered to this attachment any more (visible again already, or
                    // another's); the broker released the others
                    if (RemotingFailures.of(failure).reason() == Reason.NOT_HELD) {
                        return null;
                    }
                    throw new CompletionException(RemotingFailures.of(failure));
                });
    }

    CompletableFuture<Void> closeConsumer(ConsumerInfo consumer, List<MessagePosition> kept) {
        return toConsumerBroker(consumer, CommandCode.CLOSE_CONSUMER,
                new CloseConsumerRequest(consumer.consumerId(), consumer.subscription(), kept));
    }

    private CompletableFuture<Void> toConsumerBroker(ConsumerInfo consumer, short code, Object header) {
        if (consumer.brokerAddress() == null) {
            return notSubscribed(consumer);
        }
        return RemotingFailures.translated(Frames.invoke(remoting, consumer.brokerAddress(), code, header, timeout));
    }

    private static <T> CompletableFuture<T> notSubscribed(ConsumerInfo consumer) {
        return CompletableFuture.failedFuture(ClientException.refused(Reason.NOT_ATTACHED,
                "consumer " + consumer.consumerId() + " is not subscribed"));
    }

    CompletableFuture<BrowsePage> browse(String brokerAddress, String queue, String selector, int queueId,
                                         long fromOffset, int maxMessages) {
        BrowseRequest request = new BrowseRequest(queue, queueId, fromOffset, maxMessages, selector);
        return RemotingFailures.translated(remoting.invoke(brokerAddress, Frame.request(CommandCode.BROWSE, request),
                        timeout)
                .thenApply(response -> {
                    try {
                        BrowseResponse page = response.header(BrowseResponse.class);
                        return new BrowsePage(records(null, page.messages(), response), page.nextQueueId(),
                                page.nextOffset(), page.end());
                    } finally {
                        Frames.release(response);
                    }
                }));
    }
}
