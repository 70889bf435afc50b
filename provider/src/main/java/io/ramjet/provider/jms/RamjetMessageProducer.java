package io.ramjet.provider.jms;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.ProducerIds;
import io.ramjet.provider.client.SingleUseStream;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.message.ForeignMessages;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetBytesMessage;
import io.ramjet.provider.message.RamjetMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.Queue;
import jakarta.jms.QueueSender;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import java.io.InputStream;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A producer. Its session picks one message queue per destination (at random on first use) for
 * all its producers, so that the session's messages to a destination arrive in the order sent
 * (section 6.2.9 orders by session, not by producer). A synchronous send waits for the broker's
 * answer whatever the delivery mode (for PERSISTENT the broker answers once durable). An
 * asynchronous send calls its {@link CompletionListener} on the session thread, in send order,
 * one callback of the session at a time (never on an I/O thread); the listener must not close
 * its producer, session or connection (JMS 3.1 section 7.3.8: IllegalStateException).
 */
public final class RamjetMessageProducer implements QueueSender, TopicPublisher {

    private final RamjetSession session;
    /** Null for an anonymous producer. */
    private final RamjetDestination fixedDestination;
    /** Its message ids are this prefix and a sequence number. */
    private final String messageIdPrefix = "ID:" + UUID.randomUUID() + ":";
    private final AtomicLong lastSequence = new AtomicLong();
    /** The idempotent producer's id and the sequence of its last send. */
    private final long producerId = ProducerIds.next();
    private final AtomicLong lastSend = new AtomicLong();
    private final Object completionLock = new Object();
    private CompletableFuture<Void> lastCompletion = CompletableFuture.completedFuture(null);
    /** The session thread while it runs one of this producer's completion listeners, else null. */
    private volatile Thread completionThread;
    private volatile boolean closed;
    private boolean disableMessageId;
    private boolean disableTimestamp;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;

    RamjetMessageProducer(RamjetSession session, RamjetDestination destination) {
        this.session = session;
        this.fixedDestination = destination;
    }

    // ---- settings

    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        checkOpen();
        disableMessageId = value;
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        checkOpen();
        return disableMessageId;
    }

    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        checkOpen();
        disableTimestamp = value;
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        checkOpen();
        return disableTimestamp;
    }

    @Override
    public void setDeliveryMode(int deliveryMode) throws JMSException {
        checkOpen();
        this.deliveryMode = checkDeliveryMode(deliveryMode);
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        checkOpen();
        return deliveryMode;
    }

    @Override
    public void setPriority(int priority) throws JMSException {
        checkOpen();
        this.priority = checkPriority(priority);
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return priority;
    }

    @Override
    public void setTimeToLive(long timeToLive) throws JMSException {
        checkOpen();
        this.timeToLive = timeToLive;
    }

    @Override
    public long getTimeToLive() throws JMSException {
        checkOpen();
        return timeToLive;
    }

    @Override
    public void setDeliveryDelay(long deliveryDelay) throws JMSException {
        checkOpen();
        this.deliveryDelay = deliveryDelay;
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        checkOpen();
        return deliveryDelay;
    }

    @Override
    public Destination getDestination() throws JMSException {
        checkOpen();
        return fixedDestination;
    }

    @Override
    public Queue getQueue() throws JMSException {
        return (Queue) getDestination();
    }

    @Override
    public Topic getTopic() throws JMSException {
        return (Topic) getDestination();
    }

    // ---- sends

    @Override
    public void send(Message message) throws JMSException {
        send(requireFixedDestination(), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        send(requireFixedDestination(), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Destination destination, Message message) throws JMSException {
        send(explicitDestination(destination), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send(explicitDestination(destination), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Message message, CompletionListener listener) throws JMSException {
        send(requireFixedDestination(), message, deliveryMode, priority, timeToLive, checkListener(listener));
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive, CompletionListener listener)
            throws JMSException {
        send(requireFixedDestination(), message, deliveryMode, priority, timeToLive, checkListener(listener));
    }

    @Override
    public void send(Destination destination, Message message, CompletionListener listener) throws JMSException {
        send(explicitDestination(destination), message, deliveryMode, priority, timeToLive, checkListener(listener));
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive,
                     CompletionListener listener) throws JMSException {
        send(explicitDestination(destination), message, deliveryMode, priority, timeToLive, checkListener(listener));
    }

    @Override
    public void send(Queue queue, Message message) throws JMSException {
        send((Destination) queue, message);
    }

    @Override
    public void send(Queue queue, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send((Destination) queue, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Message message) throws JMSException {
        send(message);
    }

    @Override
    public void publish(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Topic topic, Message message) throws JMSException {
        send(topic, message);
    }

    @Override
    public void publish(Topic topic, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send(topic, message, deliveryMode, priority, timeToLive);
    }

    private RamjetDestination requireFixedDestination() throws JMSException {
        checkOpen();
        if (fixedDestination == null) {
            throw new UnsupportedOperationException("an anonymous producer needs a destination for each send");
        }
        return fixedDestination;
    }

    private RamjetDestination explicitDestination(Destination destination) throws JMSException {
        checkOpen();
        if (fixedDestination != null) {
            throw new UnsupportedOperationException("this producer sends to " + fixedDestination + " only");
        }
        if (destination == null) {
            throw new InvalidDestinationException("no destination");
        }
        return RamjetDestination.from(destination);
    }

    private static CompletionListener checkListener(CompletionListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("no completion listener");
        }
        return listener;
    }

    private void send(RamjetDestination destination, Message message, int mode, int priority, long timeToLive,
                      CompletionListener listener) throws JMSException {
        if (message == null) {
            throw new MessageFormatException("no message");
        }
        checkDeliveryMode(mode);
        checkPriority(priority);
        RamjetMessage sent = message instanceof RamjetMessage own ? own
                : ForeignMessages.copy(message, session.connection().info().allowList());
        long now = System.currentTimeMillis();
        long deliveryTime = deliveryDelay > 0 ? now + deliveryDelay : now;
        long expiration = timeToLive > 0 ? now + timeToLive : 0;
        String messageId = disableMessageId ? null : messageIdPrefix + lastSequence.incrementAndGet();
        for (Message m : sent == message ? new Message[] {message} : new Message[] {message, sent}) {
            m.setJMSDestination(destination);
            m.setJMSDeliveryMode(mode);
            m.setJMSPriority(priority);
            m.setJMSTimestamp(disableTimestamp ? 0 : now);
            m.setJMSExpiration(expiration);
            m.setJMSDeliveryTime(deliveryTime);
            m.setJMSMessageID(messageId);
        }
        MessageHeaders headers = MessageCodec.headersOf(sent);
        headers.properties().put(RamjetMessageConsumer.CONNECTION_ID_PROPERTY,
                session.connection().info().connectionId());
        InputStream bodyStream = sent instanceof RamjetBytesMessage bytes ? bytes.sendStream() : null;
        OutgoingMessage outgoing = new OutgoingMessage(destination.name(),
                destination.isQueue() ? DestinationKind.QUEUE : DestinationKind.TOPIC, mode == DeliveryMode.PERSISTENT,
                deliveryDelay > 0 ? deliveryTime : 0, expiration, MessagePropertiesCodec.encode(headers),
                bodyStream == null ? MessageCodec.encodeBody(sent) : new byte[0], producerId,
                lastSend.incrementAndGet(), bodyStream == null ? null : new SingleUseStream(bodyStream));
        CompletableFuture<Void> sending = session.producers().send(outgoing, destination, GroupQueueChoice.groupId(headers));
        if (listener == null) {
            session.producers().awaitSent(sending, outgoing);
            return;
        }
        synchronized (completionLock) {
            CompletableFuture<Void> previous = lastCompletion;
            CompletableFuture<Void> done = new CompletableFuture<>();
            lastCompletion = done;
            previous.thenRun(() -> sending.whenComplete((ok, failure) -> session.thread().execute(() -> {
                completionThread = Thread.currentThread();
                try {
                    session.thread().runCompletion(() -> {
                        if (failure == null) {
                            listener.onCompletion(message);
                        } else {
                            listener.onException(message, JmsErrors.toJms(failure));
                        }
                    });
                } finally {
                    completionThread = null;
                    done.complete(null);
                }
            })));
        }
    }

    private static int checkDeliveryMode(int mode) throws JMSException {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("not a delivery mode: " + mode);
        }
        return mode;
    }

    private static int checkPriority(int priority) throws JMSException {
        if (priority < 0 || priority > 9) {
            throw new JMSException("priority must be 0 to 9: " + priority);
        }
        return priority;
    }

    @Override
    public void close() throws JMSException {
        if (Thread.currentThread() == completionThread) {
            throw new IllegalStateException("a completion listener must not close its own producer");
        }
        if (closed) {
            return;
        }
        closed = true;
        CompletableFuture<Void> pending;
        synchronized (completionLock) {
            pending = lastCompletion;
        }
        if (!session.thread().isCurrent()) {
            try {
                pending.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException e) {
                // a completion listener's failure was reported to it
            }
        }
        session.producers().removed(this);
    }

    private void checkOpen() throws IllegalStateException {
        if (closed || session.isClosed()) {
            throw new IllegalStateException("the producer is closed");
        }
    }
}
