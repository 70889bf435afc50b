package io.ramjet.server.broker.admin;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.selector.SelectorSyntaxException;
import io.ramjet.server.broker.delivery.ConsumerSelector;
import io.ramjet.server.broker.delivery.DeadLetterQueue;
import io.ramjet.server.broker.delivery.QueueBrowse;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.storage.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * An operator's move (or copy) of a queue's messages to another destination, for instance dead
 * letters back to the queue they came from. The messages are walked as a browser walks them;
 * each one to move is first taken from the queue (in flight to the operator, so no consumer
 * gets it meanwhile), then its copy is appended and made durable, and only then is the original
 * acknowledged: a crash in between leaves it in both places, never in neither. A copy is a new
 * message of its target (a fresh delivery count, no delivery time); its header section, the
 * properties included, is kept as it was. Messages in flight to consumers are left alone.
 * Thread-safe; a move runs on the calling thread and waits for each copy.
 */
public final class MessageMover {

    private static final Logger LOG = LoggerFactory.getLogger(MessageMover.class);
    /** The consumer id the operator's move holds messages under. */
    static final long OPERATOR = Long.MIN_VALUE;
    private static final int PAGE = 256;

    private final MessageStore store;
    private final DestinationResolver resolver;
    private final DestinationTable destinations;
    private final QueueSubscriptions queues;
    private final ConsumptionLog log;
    private final QueueBrowse browse;

    /** @param resolver finds a named target, creating a missing one as a queue when the broker auto-creates destinations */
    public MessageMover(MessageStore store, DestinationResolver resolver, QueueSubscriptions queues,
                        ConsumptionLog log) {
        this.store = store;
        this.resolver = resolver;
        this.destinations = resolver.table();
        this.queues = queues;
        this.log = log;
        this.browse = new QueueBrowse(store);
    }

    /**
     * @param to       the target's name, a queue created for it when there is none and the broker
     *                 auto-creates destinations; null for each message's original destination
     *                 (messages without one stay)
     * @param selector null for all
     * @return how many messages were moved (or copied)
     * @throws BrokerException NOT_FOUND for a source the broker does not have, or a named target it
     *                         neither has nor may create; BAD_REQUEST for a selector it cannot parse
     */
    public long move(String from, String to, String selector, boolean copy, int maxMessages) {
        Destination source = queues.queue(from);
        if (from.equals(to)) {
            throw new BrokerException(Refusal.BAD_REQUEST, "cannot move the messages of '" + from + "' to itself");
        }
        Optional<Destination> target = Optional.ofNullable(to).map(name -> find(name).orElseGet(() -> created(name)));
        ConsumerSelector filter = compile(selector);
        Subscription subscription = queues.of(from);
        long moved = 0;
        int queueId = 0;
        long offset = 0;
        boolean end = false;
        while (!end && moved < maxMessages) {
            QueueBrowse.Page page = browse.page(source, subscription, queueId, offset,
                    (int) Math.min(PAGE, maxMessages - moved), filter);
            for (QueueBrowse.Browsed m : page.messages()) {
                Optional<Destination> destination = target.or(() -> original(m));
                if (destination.isPresent() && moveOne(subscription, m, destination.get(), copy)) {
                    moved++;
                }
            }
            queueId = page.nextQueueId();
            offset = page.nextOffset();
            end = page.end();
        }
        LOG.info("{} {} messages from {} to {}", copy ? "copied" : "moved", moved, from,
                to == null ? "their original destinations" : to);
        return moved;
    }

    private boolean moveOne(Subscription subscription, QueueBrowse.Browsed m, Destination target, boolean copy) {
        if (!copy && !subscription.withCursor(m.queueId(), c -> c.take(m.offset(), OPERATOR))) {
            return false;
        }
        MessageRecord original = m.record().toRecord();
        int keptFlags = original.flags() & (RecordFlags.NON_PERSISTENT | RecordFlags.LARGE);
        MessageRecord moved = new MessageRecord(RecordFlags.of(RecordType.NORMAL, keptFlags), target.storageName(),
                m.queueId() % target.queueCount(), -1, original.bornTimestamp(), 0, original.tagSignature(),
                original.properties(), original.body());
        try {
            store.append(moved, true).join();
        } catch (RuntimeException e) {
            if (!copy) {
                subscription.withCursor(m.queueId(), c -> c.release(m.offset(), OPERATOR, false));
            }
            throw e;
        }
        if (!copy) {
            subscription.withCursor(m.queueId(), c -> c.ackDelivery(m.offset(), OPERATOR));
            log.acked(subscription, List.of(new Delivery(m.queueId(), m.offset(), 0)));
        }
        return true;
    }

    private Optional<Destination> original(QueueBrowse.Browsed m) {
        MessageHeaders headers = MessagePropertiesCodec.decode(m.record().properties());
        Object name = headers.properties().get(DeadLetterQueue.ORIGINAL_DESTINATION);
        if (!(name instanceof String s)) {
            return Optional.empty();
        }
        Object kind = headers.properties().get(DeadLetterQueue.ORIGINAL_DESTINATION_KIND);
        return destinations.find("TOPIC".equals(kind) ? DestinationKind.TOPIC : DestinationKind.QUEUE, s);
    }

    private Destination created(String name) {
        if (!destinations.autoCreate()) {
            throw new BrokerException(Refusal.NOT_FOUND, "no destination named '" + name + "' on this broker, "
                    + "which does not create destinations (autoCreateDestinations=false): create it first");
        }
        return resolver.resolve(DestinationKind.QUEUE, name);
    }

    private Optional<Destination> find(String name) {
        return destinations.find(DestinationKind.QUEUE, name).or(() -> destinations.find(DestinationKind.TOPIC, name));
    }

    private static ConsumerSelector compile(String selector) {
        try {
            return selector == null || selector.isBlank() ? ConsumerSelector.ALL : ConsumerSelector.compile(selector);
        } catch (SelectorSyntaxException e) {
            throw new BrokerException(Refusal.BAD_REQUEST, "bad selector: " + e.getMessage());
        }
    }
}
