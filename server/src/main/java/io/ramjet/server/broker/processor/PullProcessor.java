package io.ramjet.server.broker.processor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.delivery.FetchedMessage;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.delivery.MessageFetcher;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.NonPersistentHorizon;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * PULL: claims up to the asked number of messages for an attached consumer, or holds the
 * request until one arrives or the hold ends; held pulls of one subscription take its messages
 * in turn ({@link HeldPulls}). The response body is the claimed records as they lie in the
 * mapped CommitLog, wrapped, not copied. Only the connection the consumer attached over may
 * pull for it: attaching is where the right to consume was checked (and a temporary
 * destination's ownership), so another connection naming its id is told it is not attached.
 */
public final class PullProcessor implements AsyncRequestProcessor {

    private final DestinationResolver destinations;
    private final SubscriptionTable subscriptions;
    private final MessageFetcher fetcher;
    private final HeldPulls heldPulls;
    private final ConsumerRegistry consumers;

    public PullProcessor(DestinationResolver destinations, SubscriptionTable subscriptions, MessageFetcher fetcher,
                         HeldPulls heldPulls, ConsumerRegistry consumers) {
        this.consumers = consumers;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.fetcher = fetcher;
        this.heldPulls = heldPulls;
    }

    @Override
    public CompletionStage<Frame> process(RemotingConnection connection, Frame request) throws Exception {
        PullRequest pull = request.header(PullRequest.class);
        SubscriptionKey key = SubscriptionRefs.keyOf(pull.subscription());
        Subscription subscription = subscriptions.find(key)
                .filter(s -> s.isAttached(pull.consumerId())
                        && consumers.attachedOver(pull.consumerId(), new ConnectionSession(connection)))
                .orElseThrow(() -> new BrokerException(Refusal.UNKNOWN_CONSUMER, "consumer "
                        + pull.consumerId() + " is not attached to subscription '" + key.name() + "'"));
        Destination destination = destinations.existing(key.destinationKind(), key.destination());
        ConsumerSelector selector = consumers.selector(pull.consumerId());
        return heldPulls.pull(destination.storageName(), subscription, pull.consumerId(), pull.maxMessages(),
                pull.holdMillis(),
                (max, maxBytes) -> connection.isActive() && subscription.isAttached(pull.consumerId())
                        ? fetcher.fetch(destination, subscription, pull.consumerId(), selector, max, maxBytes)
                        : null)
                .thenApply(fetched -> answer(request, pull.consumerId(), fetched));
    }

    private Frame answer(Frame request, long consumer, List<FetchedMessage> fetched) {
        if (fetched.isEmpty()) {
            return request.reply(new PullResponse(List.of()));
        }
        List<PulledMessage> messages = new ArrayList<>(fetched.size());
        ByteBuffer[] records = new ByteBuffer[fetched.size()];
        for (int i = 0; i < records.length; i++) {
            FetchedMessage m = fetched.get(i);
            if (NonPersistentHorizon.nonPersistent(m.record())) {
                consumers.deliveredNonPersistent(consumer, m.delivery().queueId(), m.delivery().offset());
            }
            records[i] = m.record().buffer();
            messages.add(new PulledMessage(m.delivery().queueId(), m.delivery().offset(),
                    m.delivery().deliveryCount(), records[i].remaining()));
        }
        ByteBuf body = Unpooled.wrappedBuffer(records);
        return request.reply(new PullResponse(messages), body);
    }
}
