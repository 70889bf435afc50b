package io.ramjet.provider.jms;

import io.ramjet.model.DestinationKind;
import io.ramjet.provider.client.BrowsePage;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.message.RamjetMessage;
import io.ramjet.provider.selector.Selector;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Enumeration;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A queue browser over the brokers' BROWSE command: each enumeration walks the queue on every
 * broker that hosts it, a page at a time as the application iterates, claiming nothing, so the
 * queue's consumers are not disturbed (no message becomes invisible, none is counted). The
 * broker applies the selector (tag masks, then exactly) and it is checked here again. An
 * enumeration shows what the queue holds as it goes: messages sent or consumed meanwhile may or
 * may not appear, as the specification allows.
 */
public final class RamjetQueueBrowser implements QueueBrowser {

    static final int PAGE = 64;

    private final RamjetSession session;
    private final RamjetQueue queue;
    private final Selector selector;
    private volatile boolean closed;

    RamjetQueueBrowser(RamjetSession session, RamjetQueue queue, String selectorText) throws JMSException {
        this.session = session;
        this.queue = queue;
        Selector compiled = Selector.compile(selectorText);
        this.selector = compiled == null || compiled.isEmpty() ? null : compiled;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return queue;
    }

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector == null ? null : selector.text();
    }

    @Override
    public Enumeration<?> getEnumeration() throws JMSException {
        checkOpen();
        RamjetClient client = session.connection().client();
        List<String> brokers = JmsErrors.await(client.brokersOf(queue.name(), DestinationKind.QUEUE));
        Walk walk = new Walk(client, brokers);
        walk.fill();
        return walk;
    }

    private String selectorText() {
        return selector == null ? null : selector.text();
    }

    @Override
    public void close() throws JMSException {
        closed = true;
    }

    private void checkOpen() throws IllegalStateException {
        if (closed || session.isClosed()) {
            throw new IllegalStateException("the browser is closed");
        }
    }

    /** One enumeration: the brokers in turn, each from its first page to its last. */
    private final class Walk implements Enumeration<Message> {
        private final RamjetClient client;
        private final List<String> brokers;
        private final Deque<Message> ready = new ArrayDeque<>();
        private int broker;
        /** Where the next page starts on the current broker: message queue and offset. */
        private int nextQueueId;
        private long nextOffset;

        Walk(RamjetClient client, List<String> brokers) {
            this.client = client;
            this.brokers = brokers;
        }

        /** Fetches pages until a message is ready or every broker is walked. */
        void fill() throws JMSException {
            while (ready.isEmpty() && broker < brokers.size()) {
                BrowsePage page = JmsErrors.await(client.browse(brokers.get(broker), queue.name(), selectorText(),
                        nextQueueId, nextOffset, PAGE));
                for (Delivery d : page.messages()) {
                    RamjetMessage m = decode(brokers.get(broker), d);
                    if (m != null) {
                        ready.add(m);
                    }
                }
                if (page.end()) {
                    broker++;
                    nextQueueId = 0;
                    nextOffset = 0;
                } else {
                    nextQueueId = page.nextQueueId();
                    nextOffset = page.nextOffset();
                }
            }
        }

        private RamjetMessage decode(String address, Delivery d) throws JMSException {
            RamjetMessage m = ReceivedMessages.decode(client, session.connection().chunkArrays(), address,
                    queue.name(), d, session.connection().info().allowList());
            m.setJMSDestination(queue);
            m.setJMSRedelivered(d.deliveryCount() > 1);
            m.setDeliveryCount(d.deliveryCount());
            long expiration = m.getJMSExpiration();
            boolean expired = expiration != 0 && expiration <= System.currentTimeMillis();
            return !expired && (selector == null || selector.matches(m)) ? m : null;
        }

        @Override
        public boolean hasMoreElements() {
            if (ready.isEmpty() && !closed && !session.isClosed()) {
                RuntimeExceptions.uncheckedRun(this::fill);
            }
            return !ready.isEmpty();
        }

        @Override
        public Message nextElement() {
            if (!hasMoreElements()) {
                throw new NoSuchElementException("the browse has no more messages");
            }
            return ready.poll();
        }
    }
}
