package io.ramjet.server.broker.processor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.BrowseRequest;
import io.ramjet.protocol.command.BrowseResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.selector.SelectorSyntaxException;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.delivery.QueueBrowse;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * BROWSE: a page of a queue's messages for a {@code QueueBrowser} ({@link QueueBrowse}), which
 * disturbs no consumer. The body holds the records as they lie in the mapped CommitLog,
 * wrapped, not copied, as for a pull. A queue that does not exist is one empty last page.
 * Browsing needs the right to browse the queue.
 */
public final class BrowseProcessor {

    private final DestinationTable destinations;
    private final SubscriptionTable subscriptions;
    private final QueueBrowse browse;
    private final Access access;

    public BrowseProcessor(MessageStore store, DestinationTable destinations, SubscriptionTable subscriptions,
                           Access access) {
        this.access = access;
        this.destinations = destinations;
        this.subscriptions = subscriptions;
        this.browse = new QueueBrowse(store);
    }

    public Frame browse(RemotingConnection connection, Frame request) {
        BrowseRequest req = request.header(BrowseRequest.class);
        access.check(connection, Operation.BROWSE, req.queue());
        ConsumerSelector selector;
        try {
            selector = ConsumerSelector.compile(req.selector());
        } catch (SelectorSyntaxException e) {
            throw new BrokerException(Refusal.BAD_REQUEST, "invalid selector: " + e.getMessage());
        }
        Destination queue = destinations.find(DestinationKind.QUEUE, req.queue()).orElse(null);
        if (queue == null) {
            return request.reply(new BrowseResponse(List.of(), 0, 0, true));
        }
        Subscription subscription = subscriptions.find(SubscriptionKey.queue(queue.name())).orElse(null);
        QueueBrowse.Page page = browse.page(queue, subscription, req.queueId(), req.fromOffset(), req.maxMessages(),
                selector);
        List<PulledMessage> messages = new ArrayList<>(page.messages().size());
        ByteBuffer[] records = new ByteBuffer[page.messages().size()];
        for (int i = 0; i < records.length; i++) {
            QueueBrowse.Browsed m = page.messages().get(i);
            records[i] = m.record().buffer();
            messages.add(new PulledMessage(m.queueId(), m.offset(), m.deliveryCount(), records[i].remaining()));
        }
        ByteBuf body = records.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(records);
        return request.reply(new BrowseResponse(messages, page.nextQueueId(), page.nextOffset(), page.end()), body);
    }
}
