package io.ramjet.server.broker.console;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.message.BodyType;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.selector.SelectorSyntaxException;
import io.ramjet.server.broker.admin.QueueSubscriptions;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.delivery.QueueBrowse;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import io.ramjet.model.record.LargeBodyDescriptor;
import io.ramjet.model.record.RecordFlags;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The console's message browser, {@code GET /api/browse?destination=Q[&queue=N][&offset=N][&limit=N][&selector=S]}:
 * a page of a queue's messages as a {@code QueueBrowser} sees them ({@link QueueBrowse}: nothing
 * is claimed or counted), with where the next page starts. Each message shows its headers, its
 * properties, its body's type and size, and the start of a text body (not of a large message's,
 * whose body is never read here). Thread-safe.
 */
public final class MessagePages {

    /** Messages per page unless the call asks for fewer; the page's byte limit applies as well. */
    private static final int MAX_LIMIT = 200;
    /** Characters of a text body shown. */
    private static final int PREVIEW = 256;
    /** A text body is empty for a null text, else this byte and the text in UTF-8 (the provider's MessageBodyCodec). */
    private static final byte TEXT_PRESENT = 1;

    /** One message of a page. */
    record Message(int queueId, long offset, int deliveryCount, String messageId, long timestamp, String type,
                   String correlationId, boolean persistent, int priority, long expiration, BodyType bodyType,
                   long bodySize, String text, Map<String, Object> properties, boolean large) {
    }

    /** A page; {@code next*} is where the following one starts, unless {@code end}. */
    record Page(String destination, List<Message> messages, int nextQueue, long nextOffset, boolean end) {
    }

    private final QueueSubscriptions queues;
    private final SubscriptionTable subscriptions;
    private final QueueBrowse browse;

    public MessagePages(MessageStore store, QueueSubscriptions queues, SubscriptionTable subscriptions) {
        this.queues = queues;
        this.subscriptions = subscriptions;
        this.browse = new QueueBrowse(store);
    }

    Object page(ApiCall call) {
        Destination queue = queues.queue(call.required("destination"));
        ConsumerSelector selector = compile(call.param("selector"));
        QueueBrowse.Page page = browse.page(queue, subscriptions.find(SubscriptionKey.queue(queue.name())).orElse(null),
                (int) call.number("queue", 0, 0, queue.queueCount()), call.number("offset", 0, 0, Long.MAX_VALUE),
                (int) call.number("limit", 50, 1, MAX_LIMIT), selector);
        return new Page(queue.name(), page.messages().stream().map(MessagePages::message).toList(),
                page.nextQueueId(), page.nextOffset(), page.end());
    }

    private static Message message(QueueBrowse.Browsed m) {
        MessageRecordView record = m.record();
        MessageHeaders h = MessagePropertiesCodec.decode(record.properties());
        ByteBuffer body = record.body();
        // a large message's record holds its chunk table: its size is read there, its chunks never
        boolean large = RecordFlags.isSet(record.flags(), RecordFlags.LARGE);
        long size = large ? LargeBodyDescriptor.decode(body).bodyLength() : body.remaining();
        return new Message(m.queueId(), m.offset(), m.deliveryCount(), h.messageId(), h.timestamp(), h.type(),
                h.correlationId(), h.deliveryMode() == MessageHeaders.PERSISTENT, h.priority(), h.expiration(),
                h.bodyType(), size, h.bodyType() == BodyType.TEXT && !large ? preview(body) : null, h.properties(),
                large);
    }

    private static String preview(ByteBuffer body) {
        if (!body.hasRemaining() || body.get(body.position()) != TEXT_PRESENT) {
            return null;
        }
        ByteBuffer utf8 = body.duplicate();
        utf8.position(utf8.position() + 1);
        utf8.limit(Math.min(utf8.limit(), utf8.position() + PREVIEW * 4));
        String text = StandardCharsets.UTF_8.decode(utf8).toString();
        return text.length() > PREVIEW ? text.substring(0, PREVIEW) + "…" : text;
    }

    private static ConsumerSelector compile(String selector) {
        try {
            return selector == null ? ConsumerSelector.ALL : ConsumerSelector.compile(selector);
        } catch (SelectorSyntaxException e) {
            throw new BrokerException(Refusal.BAD_REQUEST, "bad selector: " + e.getMessage());
        }
    }
}
