package io.ramjet.provider.jms;

import io.ramjet.protocol.command.SubscriptionRef;
import io.ramjet.protocol.message.TagSignature;
import io.ramjet.provider.client.ClientErrors;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetMessage;
import io.ramjet.provider.selector.Selector;
import io.ramjet.provider.selector.SelectorAnalysis;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer: one prefetch thread long-polls the broker (PULL held up to {@link #HOLD_MILLIS})
 * into a bounded local queue; {@code receive} and the session's listener thread take from it.
 *
 * <p>Before a message reaches the application the prefetch thread drops what the application
 * must never see: expired messages and, with noLocal, the connection's own (both acknowledged),
 * and the broker's selector false positives (released with the consumer excluded on a queue,
 * acknowledged on a topic subscription). On close, prefetched messages the application never
 * saw are released without counting a delivery.
 */
public final class RamjetMessageConsumer implements QueueReceiver, TopicSubscriber {

    private static final Logger LOG = LoggerFactory.getLogger(RamjetMessageConsumer.class);

    static final String CONNECTION_ID_PROPERTY = "JMS_RamjetConnectionID";
    static final int PREFETCH = 64;
    static final long HOLD_MILLIS = 300;
    private static final long POLL_SLICE_MILLIS = 50;

    /** A message ready for the application, with the delivery it came from. */
    private record Received(Delivery delivery, RamjetMessage message) {
    }

    private final RamjetSession session;
    private final RamjetClient client;
    private final ConsumerInfo info;
    private final RamjetDestination destination;
    private final Selector selector;
    private final BlockingDeque<Received> prefetched = new LinkedBlockingDeque<>();
    private final Object space = new Object();
    private final Thread puller;
    private volatile MessageListener listener;
    private volatile boolean closed;

    private RamjetMessageConsumer(RamjetSession session, ConsumerInfo info, RamjetDestination destination,
                                  Selector selector) {
        this.session = session;
        this.client = session.connection().client();
        this.info = info;
        this.destination = destination;
        this.selector = selector;
        this.puller = new Thread(this::pullLoop, "ramjet-consumer-" + Long.toHexString(info.consumerId()));
        this.puller.setDaemon(true);
    }

    static RamjetMessageConsumer open(RamjetSession session, long consumerId, RamjetDestination destination,
                                      SubscriptionRef ref, String selectorText, boolean noLocal) throws JMSException {
        Selector selector = Selector.compile(selectorText);
        List<Long> masks = new ArrayList<>();
        if (selector != null && !selector.isEmpty()) {
            Arrays.stream(SelectorAnalysis.of(selector, TagSignature.DEFAULT).masks()).forEach(masks::add);
        }
        String text = selector == null || selector.isEmpty() ? null : selector.text();
        ConsumerInfo wanted = new ConsumerInfo(consumerId, ref, text, noLocal, masks, null);
        ConsumerInfo attached = ClientErrors.await(session.connection().client().subscribe(wanted));
        RamjetMessageConsumer consumer = new RamjetMessageConsumer(session, attached, destination,
                text == null ? null : selector);
        consumer.puller.start();
        return consumer;
    }

    ConsumerInfo info() {
        return info;
    }

    RamjetDestination destination() {
        return destination;
    }

    // ---- prefetch

    private void pullLoop() {
        while (!closed) {
            int room = PREFETCH - prefetched.size();
            try {
                if (room <= 0) {
                    synchronized (space) {
                        if (!closed && prefetched.size() >= PREFETCH) {
                            space.wait(HOLD_MILLIS);
                        }
                    }
                    continue;
                }
                for (Delivery delivery : client.pull(info, room, HOLD_MILLIS).get()) {
                    accept(delivery);
                }
            } catch (InterruptedException e) {
                return;
            } catch (ExecutionException e) {
                if (closed) {
                    return;
                }
                JMSException failure = ClientErrors.toJms(e.getCause());
                LOG.warn("consumer {} of {}: pull failed", info.consumerId(), destination, failure);
                session.connection().onAsyncFailure(failure);
                try {
                    Thread.sleep(HOLD_MILLIS);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private void accept(Delivery delivery) {
        if (closed) {
            logFailure(client.release(info, delivery.position(), false, false), "release");
            return;
        }
        RamjetMessage message;
        try {
            message = MessageCodec.decode(delivery.properties(), delivery.body(), session.connection().info().allowList());
            message.setJMSDestination(destination);
            message.setJMSRedelivered(delivery.deliveryCount() > 1);
            message.setDeliveryCount(delivery.deliveryCount());
        } catch (JMSException e) {
            LOG.warn("consumer {} of {}: undecodable message at {}, released", info.consumerId(), destination,
                    delivery.position(), e);
            logFailure(client.release(info, delivery.position(), true, false), "release");
            return;
        }
        long expiration = message.getJMSExpiration();
        boolean expired = expiration != 0 && expiration <= System.currentTimeMillis();
        boolean ownMessage = info.noLocal()
                && session.connection().info().connectionId().equals(message.getObjectProperty(CONNECTION_ID_PROPERTY));
        if (expired || ownMessage) {
            logFailure(client.ack(info, List.of(delivery.position())), "ack");
            return;
        }
        if (selector != null && !selector.matches(message)) {
            if (info.isQueue()) {
                logFailure(client.release(info, delivery.position(), false, true), "release");
            } else {
                logFailure(client.ack(info, List.of(delivery.position())), "ack");
            }
            return;
        }
        if (session.isClientAcknowledge()) {
            message.setAcknowledger(session::acknowledge);
        }
        prefetched.add(new Received(delivery, message));
        scheduleListener();
    }

    private Received take(long timeoutNanos) throws InterruptedException {
        Received received = prefetched.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        if (received != null) {
            synchronized (space) {
                space.notifyAll();
            }
        }
        return received;
    }

    // ---- synchronous receipt

    @Override
    public Message receive() throws JMSException {
        return receive(Long.MAX_VALUE / 2, false);
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        return timeout == 0 ? receive() : receive(timeout, false);
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        return receive(0, true);
    }

    private Message receive(long timeoutMillis, boolean noWait) throws JMSException {
        return receive(timeoutMillis, noWait, null);
    }

    /**
     * {@code JMSConsumer.receiveBody}: a message whose body is not assignable to {@code type} is
     * put back at the head, unconsumed, and a MessageFormatException thrown, so it is delivered
     * again before any later message as the javadoc of receiveBody requires.
     */
    <T> T receiveBody(Class<T> type, long timeoutMillis, boolean noWait) throws JMSException {
        Message m = receive(timeoutMillis, noWait, type);
        return m == null ? null : m.getBody(type);
    }

    private Message receive(long timeoutMillis, boolean noWait, Class<?> bodyType) throws JMSException {
        checkOpen();
        if (listener != null) {
            throw new IllegalStateException("the consumer has a message listener");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(timeoutMillis, 0));
        try {
            while (!isClosed()) {
                long left = deadline - System.nanoTime();
                if (session.connection().isStarted()) {
                    Received received = take(noWait ? 0 : Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_SLICE_MILLIS)));
                    if (received != null) {
                        if (isClosed()) {
                            logFailure(client.release(info, received.delivery().position(), false, false), "release");
                            return null;
                        }
                        if (bodyType != null && !received.message().isBodyAssignableTo(bodyType)) {
                            prefetched.addFirst(received);
                            throw new MessageFormatException("the body of " + received.message().getJMSMessageID()
                                    + " cannot be read as " + bodyType.getName());
                        }
                        session.consumed(received.delivery());
                        return received.message();
                    }
                } else if (!noWait) {
                    session.connection().awaitStarted(Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_SLICE_MILLIS)));
                }
                if (noWait || deadline - System.nanoTime() <= 0) {
                    return null;
                }
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    // ---- asynchronous receipt

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        this.listener = listener;
        scheduleListener();
    }

    /** Asks the session thread to deliver what is prefetched, when there is a listener and the connection runs. */
    void scheduleListener() {
        if (listener != null && !closed && session.connection().isStarted()) {
            session.dispatch(this::deliverToListener);
        }
    }

    private void deliverToListener() {
        while (!isClosed() && session.connection().isStarted()) {
            MessageListener current = listener;
            if (current == null) {
                return;
            }
            Received received;
            try {
                received = take(0);
            } catch (InterruptedException e) {
                return;
            }
            if (received == null) {
                return;
            }
            try {
                current.onMessage(received.message());
            } catch (RuntimeException e) {
                LOG.warn("listener of consumer {} threw; message redelivered", info.consumerId(), e);
                if (!session.isClientAcknowledge()) {
                    logFailure(client.release(info, received.delivery().position(), true, false), "release");
                    continue;
                }
            }
            try {
                session.consumed(received.delivery());
            } catch (JMSException e) {
                session.connection().onAsyncFailure(e);
            }
        }
    }

    // ---- the rest

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return info.selector();
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        if (destination instanceof Queue queue) {
            return queue;
        }
        throw new IllegalStateException("not a queue consumer");
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        if (destination instanceof Topic topic) {
            return topic;
        }
        throw new IllegalStateException("not a topic consumer");
    }

    @Override
    public boolean getNoLocal() throws JMSException {
        checkOpen();
        return info.noLocal();
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        session.awaitListenerIdle();
        synchronized (space) {
            space.notifyAll();
        }
        try {
            puller.join(HOLD_MILLIS + session.connection().info().requestTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        session.removed(this);
        List<Received> unseen = new ArrayList<>();
        prefetched.drainTo(unseen);
        List<CompletableFuture<Void>> releases = new ArrayList<>();
        for (Received r : unseen) {
            releases.add(client.release(info, r.delivery().position(), false, false));
        }
        ClientErrors.await(CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new)));
        ClientErrors.await(client.closeConsumer(info));
    }

    private void logFailure(CompletableFuture<Void> call, String what) {
        call.whenComplete((done, failure) -> {
            if (failure != null && !session.connection().isClosed()) {
                LOG.warn("consumer {} of {}: {} failed", info.consumerId(), destination, what, failure);
            }
        });
    }

    private boolean isClosed() {
        return closed || session.isClosed();
    }

    private void checkOpen() throws IllegalStateException {
        if (isClosed()) {
            throw new IllegalStateException("the consumer is closed");
        }
    }
}
