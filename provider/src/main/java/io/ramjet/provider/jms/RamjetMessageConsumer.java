package io.ramjet.provider.jms;

import io.ramjet.model.SubscriptionRef;
import io.ramjet.provider.client.ConsumerFeed;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.selector.Selector;
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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer: fed, by its client's {@link RamjetClient#consume feed} from every broker that hosts
 * its destination, into one bounded local queue; {@code receive} and the session's listener
 * thread take from it.
 *
 * <p>Before a message reaches the application, as it is taken and decoded, what the application
 * must never see is dropped: expired messages and, with noLocal, the connection's own (both
 * acknowledged); the broker
 * has applied the selector, exactly. On close, and when an attachment is lost (a broker
 * restarted, a connection dropped), prefetched messages the application never saw are dropped:
 * the broker delivers them again, uncounted after a close. {@link #pause} stops the intake and takes what is
 * prefetched, so that {@code recover} and {@code rollback} can put the messages back in their
 * order before anything newer is taken in.
 *
 * <p>A consumer whose application is not taking messages ({@link ApplicationDemand}: no thread
 * in {@code receive} and no listener for {@value #IDLE_MILLIS} ms) takes nothing in and gives
 * back, uncounted, what it holds and what a pull still out brings, so that a message of a queue
 * or shared subscription waits at the broker for a consumer that asks for it: the first
 * {@code receive} after that pulls again, and {@code receiveNoWait} asks the brokers at once
 * ({@link ConsumerFeed#pullNow}).
 *
 * <p>The consumer is the JMS face and the synchronous receipt; the prefetch and what goes back to
 * the brokers are its {@link ConsumerPipeline}'s, the listener's calls its
 * {@link ListenerDispatch}'s.
 */
public final class RamjetMessageConsumer implements QueueReceiver, TopicSubscriber {

    private static final Logger LOG = LoggerFactory.getLogger(RamjetMessageConsumer.class);

    static final String CONNECTION_ID_PROPERTY = "JMS_RamjetConnectionID";
    private static final long POLL_SLICE_MILLIS = 50;
    /**
     * How long after its last receive an application without a listener is taken to have stopped
     * taking messages. Added to a pull's hold (what a pull out may still bring) and a release's
     * round trip, it bounds how long a message waits with a consumer nobody asks.
     */
    static final long IDLE_MILLIS = 500;
    /** The most a receiveNoWait waits for the brokers' answers to the pulls it asked for. */
    private static final long PULL_NOW_MAX_MILLIS = 10_000;

    private final RamjetSession session;
    private final RamjetClient client;
    private final ConsumerInfo info;
    private final RamjetDestination destination;
    private final ConsumerCalls calls;
    private final ConsumerPipeline pipeline;
    private final ListenerDispatch listeners;

    private RamjetMessageConsumer(RamjetSession session, ConsumerInfo info, RamjetDestination destination) {
        this.session = session;
        this.client = session.connection().client();
        this.info = info;
        this.destination = destination;
        this.calls = new ConsumerCalls(session, info.consumerId(), destination);
        this.pipeline = new ConsumerPipeline(session, info, destination, calls, this::scheduleListener);
        this.listeners = new ListenerDispatch(session, info, pipeline, calls);
    }

    static RamjetMessageConsumer open(RamjetSession session, long consumerId, RamjetDestination destination,
                                      SubscriptionRef ref, String selectorText, boolean noLocal) throws JMSException {
        Selector selector = Selector.compile(selectorText); // throws InvalidSelectorException; the broker applies it
        String text = selector == null || selector.isEmpty() ? null : selector.text();
        ConsumerInfo wanted = new ConsumerInfo(consumerId, ref, text, noLocal, null);
        RamjetMessageConsumer consumer = new RamjetMessageConsumer(session, wanted, destination);
        consumer.pipeline.open();
        return consumer;
    }

    /** The consumer's terms; each broker's attachment is in the deliveries it feeds. */
    ConsumerInfo info() {
        return info;
    }

    RamjetDestination destination() {
        return destination;
    }

    // ---- the pipeline, as the session sees it

    /**
     * How this consumer's delivery pipeline stands now, in words, for a diagnosis (a benchmark's
     * stalled drain prints it): its consumer id, prefetch, pull window, whether the application
     * takes messages, and per broker its attachment and pulls out. Not a stable format.
     */
    public String deliveryState() {
        return "consumer " + info.consumerId() + ": " + pipeline.describe();
    }

    /** Messages waiting in the prefetch, for tests. */
    int prefetchedCount() {
        return pipeline.size();
    }

    /** Whether the consumer takes messages in: its application is receiving or has a listener, for tests. */
    boolean takingMessages() {
        return !pipeline.demand().idle();
    }

    /** Bytes of the messages waiting in the prefetch, for tests. */
    long prefetchedBytes() {
        return pipeline.bytes();
    }

    /** The connection started: the feeds may take messages in again. */
    void connectionStarted() {
        pipeline.wakeFeeds();
        scheduleListener();
    }

    /**
     * The connection stopped: nothing more is taken in, and what was prefetched goes back to the
     * broker uncounted, for consumers of started connections.
     */
    void connectionStopped() throws JMSException {
        pipeline.releasePrefetched();
    }

    /**
     * Stops taking messages in (waiting for a pull in progress, at most its hold) and hands over
     * what is prefetched, oldest first, until {@link #resume}. Called by the session's thread.
     */
    List<Delivery> pause() {
        return pipeline.pause();
    }

    /** Takes messages in again after {@link #pause}. */
    void resume() {
        pipeline.resume();
    }

    /**
     * After a rollback: the prefetched messages the application never saw go back to the broker
     * uncounted, with the intake paused meanwhile, so that redelivery starts again with the
     * rolled-back ones.
     */
    void releasePrefetched() throws JMSException {
        pipeline.releasePrefetched();
    }

    /**
     * Drops the prefetched messages of a lost attachment (its broker gone): the broker delivers
     * them again, and the application never saw them.
     */
    void dropPrefetched(ConsumerInfo attachment) {
        pipeline.dropPrefetched(attachment);
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

    /**
     * Waits up to {@code timeoutMillis} until a message is prefetched for this consumer, taking
     * none: for a caller that must open a transaction before it receives (a resource adapter's
     * message-driven session) and opens one only when a receive will find a message. A message
     * seen here may still not be received, when it expired meanwhile or went back to the broker
     * with a lost connection.
     *
     * @return whether a message is prefetched
     */
    public boolean awaitMessage(long timeoutMillis) throws JMSException {
        checkOpen();
        pipeline.demand().enterReceive(); // a caller waiting to receive takes messages: its consumer is not idle
        try {
            return pipeline.awaitMessage(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            pipeline.demand().leaveReceive();
        }
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
        if (listeners.listener() != null) {
            throw new IllegalStateException("the consumer has a message listener");
        }
        CompletableFuture<Void> askedNow = null;
        if (noWait && pipeline.size() == 0 && session.connection().isStarted()) {
            askedNow = pipeline.enterReceiveAskingNow();
        } else {
            pipeline.demand().enterReceive(); // wakes the feeds if the application was idle
        }
        try {
            if (askedNow != null) {
                awaitPullNow(askedNow);
            }
            return receiveEntered(timeoutMillis, noWait, bodyType);
        } finally {
            pipeline.demand().leaveReceive();
        }
    }

    /** Waits for the brokers' answers to {@link ConsumerFeed#pullNow}: what is "immediately available". */
    private void awaitPullNow(CompletableFuture<Void> answered) {
        try {
            answered.get(PULL_NOW_MAX_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("consumer {} of {}: asking the brokers at once did not complete", info.consumerId(),
                    destination, e);
        }
    }

    private Message receiveEntered(long timeoutMillis, boolean noWait, Class<?> bodyType) throws JMSException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(timeoutMillis, 0));
        try {
            while (!isClosed()) {
                long left = deadline - System.nanoTime();
                if (session.connection().isStarted()) {
                    Received received = pipeline.take(noWait ? 0 : Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_SLICE_MILLIS)));
                    if (received != null) {
                        if (isClosed()) {
                            Delivery d = received.delivery();
                            calls.logFailure(client.release(d.consumer(), List.of(d.position()), false), "release");
                            return null;
                        }
                        if (bodyType != null && !received.message().isBodyAssignableTo(bodyType)) {
                            pipeline.putBack(received);
                            throw new MessageFormatException("the body of " + received.message().getJMSMessageID()
                                    + " cannot be read as " + bodyType.getName());
                        }
                        session.acknowledgement().consumed(received.delivery());
                        pipeline.settled(received);
                        if (pipeline.size() == 0) {
                            session.acknowledgement().caughtUp();
                        }
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
        return listeners.listener();
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        listeners.listen(listener);
    }

    /** Asks the session thread to deliver what is prefetched, when there is a listener and the connection runs. */
    void scheduleListener() {
        listeners.schedule();
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

    /**
     * Stops the feeds, waits for the session's acknowledgements still on their way, then detaches
     * from every broker: the broker gives back uncounted what was prefetched and never seen, and
     * keeps with the consumer what its session consumed and has still to settle. A pull held at
     * a broker is answered (empty) as the consumer detaches; its feed ends then, unwaited.
     */
    @Override
    public void close() throws JMSException {
        if (!pipeline.markClosed()) {
            return;
        }
        pipeline.demand().close();
        session.thread().awaitIdle();
        List<ConsumerInfo> attached = pipeline.stopFeeds();
        session.consumers().removed(this);
        try {
            session.acknowledgement().awaitAcknowledgements();
        } catch (JMSException e) {
            LOG.debug("consumer {} of {}: an acknowledgement failed before close (reported already)",
                    info.consumerId(), destination, e);
        }
        List<CompletableFuture<Void>> detaches = new ArrayList<>();
        for (ConsumerInfo at : attached) {
            detaches.add(calls.bestEffort(pipeline.detachFrom(at), "detach"));
        }
        CompletableFuture.allOf(detaches.toArray(CompletableFuture[]::new)).join();
        pipeline.clear();
    }

    private boolean isClosed() {
        return pipeline.closed() || session.isClosed();
    }

    private void checkOpen() throws IllegalStateException {
        if (isClosed()) {
            throw new IllegalStateException("the consumer is closed");
        }
    }
}
