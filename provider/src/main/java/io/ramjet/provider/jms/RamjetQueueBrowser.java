package io.ramjet.provider.jms;

import io.ramjet.protocol.command.SubscriptionRef;
import io.ramjet.provider.client.ClientErrors;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetMessage;
import io.ramjet.provider.selector.Selector;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A queue browser. The broker has no browse command, so each enumeration is a snapshot: a
 * consumer of the queue's subscription pulls without holding until nothing is left, then
 * releases everything without counting a delivery. While the snapshot is taken the messages are
 * briefly invisible to the queue's other consumers; none is consumed or counted.
 */
public final class RamjetQueueBrowser implements QueueBrowser {

    private static final int BATCH = 256;

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
        ConsumerInfo consumer = ClientErrors.await(client.subscribe(new ConsumerInfo(
                ThreadLocalRandom.current().nextLong(), SubscriptionRef.queue(queue.name()), null, false, List.of(),
                null)));
        List<Delivery> held = new ArrayList<>();
        List<Message> snapshot = new ArrayList<>();
        try {
            for (List<Delivery> batch = ClientErrors.await(client.pull(consumer, BATCH, 0)); !batch.isEmpty();
                 batch = ClientErrors.await(client.pull(consumer, BATCH, 0))) {
                held.addAll(batch);
                for (Delivery d : batch) {
                    RamjetMessage m = MessageCodec.decode(d.properties(), d.body(),
                            session.connection().info().allowList());
                    m.setJMSDestination(queue);
                    m.setJMSRedelivered(d.deliveryCount() > 1);
                    m.setDeliveryCount(d.deliveryCount());
                    long expiration = m.getJMSExpiration();
                    boolean expired = expiration != 0 && expiration <= System.currentTimeMillis();
                    if (!expired && (selector == null || selector.matches(m))) {
                        snapshot.add(m);
                    }
                }
            }
        } finally {
            List<CompletableFuture<Void>> releases = new ArrayList<>();
            for (Delivery d : held) {
                releases.add(client.release(consumer, d.position(), false, false));
            }
            // waited for, so the messages are visible again before the enumeration is returned:
            // a browser or consumer created next must see them
            ClientErrors.await(CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
                    .thenCompose(done -> client.closeConsumer(consumer)));
        }
        return Collections.enumeration(snapshot);
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
}
