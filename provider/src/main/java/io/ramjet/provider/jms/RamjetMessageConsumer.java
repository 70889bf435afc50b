package io.ramjet.provider.jms;

import io.ramjet.model.SubscriptionRef;
import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConsumerFeed;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.FeedSink;
import io.ramjet.provider.client.Intake;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetMessage;
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
import java.util.concurrent.atomic.AtomicBoolean;
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
 */
public final class RamjetMessageConsumer implements QueueReceiver, TopicSubscriber {

    private static final Logger LOG = LoggerFactory.getLogger(RamjetMessageConsumer.class);

    static final String CONNECTION_ID_PROPERTY = "JMS_RamjetConnectionID";
    /** The application keeps up when what it takes waited at most this long: the window may grow. */
    private static final long KEEP_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The application is behind when what it takes waited this long: the window shrinks to one. */
    private static final long BEHIND_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long POLL_SLICE_MILLIS = 50;
    /**
     * How long after its last receive an application without a listener is taken to have stopped
     * taking messages. Added to a pull's hold (what a pull out may still bring) and a release's
     * round trip, it bounds how long a message waits with a consumer nobody asks.
     */
    static final long IDLE_MILLIS = 500;
    /** The most a receiveNoWait waits for the brokers' answers to the pulls it asked for. */
    private static final long PULL_NOW_MAX_MILLIS = 10_000;
    /** What a message is taken to weigh until one has been seen: sizes a consumer's first pull. */
    private static final int FIRST_GUESS_BYTES = 128 * 1024;

    /**
     * A delivery prefetched, with its priority and when it came, nanos; its message is decoded
     * and admitted ({@link #admit}) when it is taken, on the thread that takes it, not on the
     * I/O thread that took the pull's answer in. Guarded by the thread that took it.
     */
    private static final class Received {
        private final Delivery delivery;
        private final int priority;
        private final long arrivedAt;
        private RamjetMessage message;

        Received(Delivery delivery, long arrivedAt) {
            this.delivery = delivery;
            this.priority = MessageCodec.priorityOf(delivery.properties());
            this.arrivedAt = arrivedAt;
        }

        Delivery delivery() {
            return delivery;
        }

        /** The message, once admitted. */
        RamjetMessage message() {
            return message;
        }

        int bytes() {
            return sizeOf(delivery);
        }
    }

    private final RamjetSession session;
    private final RamjetClient client;
    private final ConsumerInfo info;
    private final RamjetDestination destination;
    private final PrefetchBuffer<Received> prefetched = new PrefetchBuffer<>(r -> r.priority,
            Received::bytes);
    /** Guards {@link #requested} and {@link #largest}; waited on by feeds for room. */
    private final Object space = new Object();
    private final Intake intake = new Intake();
    /** Whether a {@link #giveBackHeld} is waiting or under way. */
    private final AtomicBoolean givingBack = new AtomicBoolean();
    /** Whether the application is taking messages; when it is not, the consumer holds none. */
    private final ApplicationDemand demand;
    /** Most messages held unseen by the application (the {@code prefetch} URL option). */
    private final int prefetch;
    /** Most bytes held unseen by the application and asked for (the {@code prefetchBytes} URL option). */
    private final long prefetchBytes;
    /** Messages asked for by pulls still out. */
    private int requested;
    /** The largest message taken in so far, bytes; 0 before the first. What a pull asks for is counted at this size. */
    private int largest;
    /** Set once, as the consumer opens. */
    private volatile ConsumerFeed feeds;
    private volatile MessageListener listener;
    private volatile boolean closed;
    /**
     * How many messages the feeds may prefetch now: one, doubling each time the application
     * empties the prefetch promptly, up to {@link #prefetch}, back to one once what it took
     * waited a second.
     */
    private volatile int window = 1;

    private RamjetMessageConsumer(RamjetSession session, ConsumerInfo info, RamjetDestination destination) {
        this.session = session;
        this.client = session.connection().client();
        this.info = info;
        this.destination = destination;
        this.prefetch = session.connection().info().options().prefetch();
        this.prefetchBytes = session.connection().info().options().prefetchBytes();
        this.demand = new ApplicationDemand(IDLE_MILLIS, session.connection().timer(), this::giveBack, this::wakeFeeds);
    }

    static RamjetMessageConsumer open(RamjetSession session, long consumerId, RamjetDestination destination,
                                      SubscriptionRef ref, String selectorText, boolean noLocal) throws JMSException {
        Selector selector = Selector.compile(selectorText); // throws InvalidSelectorException; the broker applies it
        String text = selector == null || selector.isEmpty() ? null : selector.text();
        ConsumerInfo wanted = new ConsumerInfo(consumerId, ref, text, noLocal, null);
        RamjetMessageConsumer consumer = new RamjetMessageConsumer(session, wanted, destination);
        try {
            consumer.feeds = consumer.client.consume(wanted, consumer.new Feed());
        } catch (ClientException e) {
            throw JmsErrors.toJms(e);
        }
        consumer.demand.start();
        return consumer;
    }

    /** The consumer's terms; each broker's attachment is in the deliveries it feeds. */
    ConsumerInfo info() {
        return info;
    }

    RamjetDestination destination() {
        return destination;
    }

    // ---- prefetch

    /** What the feeds see of this consumer. */
    private final class Feed implements FeedSink {
        @Override
        public int reserve() {
            synchronized (space) {
                int room = room();
                requested += room;
                return room;
            }
        }

        @Override
        public void awaitRoom(long millis) throws InterruptedException {
            synchronized (space) {
                if (room() <= 0 && !closed) {
                    space.wait(millis);
                }
            }
        }

        @Override
        public Intake intake() {
            return intake;
        }

        @Override
        public void accept(List<Delivery> deliveries, int reserved) {
            long now = System.nanoTime();
            List<Received> ready = new ArrayList<>(deliveries.size());
            int size = 0;
            for (Delivery d : deliveries) {
                size = Math.max(size, sizeOf(d));
                if (!closed) { // closing detaches the consumer, which gives back uncounted what it never saw
                    ready.add(new Received(d, now));
                }
            }
            synchronized (space) {
                prefetched.addAll(ready);
                requested -= reserved;
                largest = Math.max(largest, size);
                space.notifyAll();
            }
            if (!ready.isEmpty()) {
                if (demand.idle()) {
                    giveBack(); // a pull sent before the application went idle
                }
                scheduleListener();
            }
        }

        @Override
        public void attachmentLost(ConsumerInfo attachment) {
            session.attachmentLost(attachment);
            dropPrefetched(attachment);
        }

        @Override
        public CompletableFuture<Void> detach(ConsumerInfo attachment) {
            try {
                session.awaitAcknowledgements();
            } catch (JMSException e) {
                LOG.debug("consumer {} of {}: an acknowledgement failed before a detach (reported already)",
                        info.consumerId(), destination, e);
            }
            return detachFrom(attachment);
        }

        @Override
        public void failed(String address, ClientException failure) {
            if (closed) {
                return;
            }
            JMSException jms = JmsErrors.toJms(failure);
            LOG.warn("consumer {} of {}: pull from {} failed", info.consumerId(), destination, address, jms);
            session.connection().onAsyncFailure(jms);
        }
    }

    /**
     * How many messages a pull may ask for now, with {@link #space} held. Nothing while the
     * connection is stopped or the application takes no messages; else a refill of the window
     * once what is prefetched and asked for is down to half of it (with a window of one: once
     * both are none), so that a consumer takes
     * only what its application keeps up with and the others of its subscription get the rest.
     * In bytes the same, each message asked for counted at the largest size seen: a refill once
     * half of {@link #prefetchBytes} is free, as many as fit (one, when nothing is held, however
     * large). Until a message has been seen, one pull at a time takes a backlog of up to
     * {@link #prefetchBytes} / {@value #FIRST_GUESS_BYTES} messages (8 by default), which are
     * handed out by priority.
     */
    private int room() {
        if (closed || demand.idle() || !session.connection().isStarted()) {
            return 0;
        }
        int held = prefetched.size() + requested;
        if (largest == 0) {
            return held == 0 ? (int) Math.max(1, Math.min(prefetch, prefetchBytes / FIRST_GUESS_BYTES)) : 0;
        }
        int w = window;
        if (held > w / 2) {
            return 0;
        }
        long free = prefetchBytes - prefetched.bytes() - (long) requested * largest;
        if (held > 0 && free < prefetchBytes / 2) {
            return 0;
        }
        return (int) Math.min(w - held, Math.max(free / largest, held == 0 ? 1 : 0));
    }

    private static int sizeOf(Delivery delivery) {
        return delivery.size();
    }

    /**
     * The message of a delivery if the application is to see it; null when it is dropped as it
     * is taken (closing, undecodable, expired, own with noLocal). The broker evaluates the selector
     * exactly: what it sends matches.
     */
    private RamjetMessage admit(Delivery delivery) {
        ConsumerInfo at = delivery.consumer();
        if (closed) {
            return null; // closing detaches the consumer, which gives back uncounted what it never saw
        }
        RamjetMessage message;
        try {
            message = ReceivedMessages.decode(client, at.brokerAddress(), at.subscription().destination(), delivery,
                    session.connection().info().allowList());
            message.setJMSDestination(destination);
            message.setJMSRedelivered(delivery.deliveryCount() > 1);
            message.setDeliveryCount(delivery.deliveryCount());
        } catch (JMSException e) {
            LOG.warn("consumer {} of {}: undecodable message at {}, released", info.consumerId(), destination,
                    delivery.position(), e);
            logFailure(client.release(at, List.of(delivery.position()), true), "release");
            return null;
        }
        long expiration = message.getJMSExpiration();
        boolean expired = expiration != 0 && expiration <= System.currentTimeMillis();
        boolean ownMessage = info.noLocal()
                && session.connection().info().connectionId().equals(message.getObjectProperty(CONNECTION_ID_PROPERTY));
        if (expired || ownMessage) {
            logFailure(client.ack(at, List.of(delivery.position())), "ack");
            return null;
        }
        if (session.isClientAcknowledge()) {
            message.setAcknowledger(session::acknowledge);
        }
        return message;
    }

    /** Messages waiting in the prefetch, for tests. */
    int prefetchedCount() {
        return prefetched.size();
    }

    /** Whether the consumer takes messages in: its application is receiving or has a listener, for tests. */
    boolean takingMessages() {
        return !demand.idle();
    }

    /** Bytes of the messages waiting in the prefetch, for tests. */
    long prefetchedBytes() {
        return prefetched.bytes();
    }

    /** The next prefetched message the application is to see, admitted; what admission drops is passed over. */
    private Received take(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            Received received = prefetched.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (received == null) {
                return null;
            }
            adaptWindow(System.nanoTime() - received.arrivedAt);
            synchronized (space) {
                // a feed waits for room, which most takes do not make (a refill waits for half the window)
                if (room() > 0) {
                    space.notifyAll();
                }
            }
            if (received.message == null) {
                received.message = admit(received.delivery);
            }
            if (received.message != null) {
                return received;
            }
        }
    }

    /**
     * An application that takes its messages late does not keep what others could take: the
     * window drops to one and the surplus goes back to the broker uncounted. One that keeps up
     * doubles it each time its prefetch runs dry.
     */
    private void adaptWindow(long waitedNanos) {
        if (waitedNanos >= BEHIND_NANOS) {
            window = 1;
            giveBack();
        } else if (waitedNanos <= KEEP_UP_NANOS && prefetched.size() == 0) {
            window = Math.min(prefetch, window * 2);
        }
    }

    /** Starts a {@link #giveBackHeld} once no pull is out, unless one is waiting or under way. */
    private void giveBack() {
        if (!givingBack.getAndSet(true)) {
            intake.pauseThen(this::giveBackHeld);
        }
    }

    /**
     * Releases, uncounted, every prefetched message when the application takes none, else all
     * but the oldest; with no pull out: a pull out could bring messages later than those given
     * back, which the application would then see before them. Pulls resume once the broker has
     * taken the release (one request per broker), so the next pull finds them first. Messages a
     * last pull brought to an idle consumer meanwhile are given back in turn.
     */
    private void giveBackHeld() {
        List<Received> surplus = prefetched.trimTo(demand.idle() ? 0 : 1);
        List<Delivery> oldestFirst = new ArrayList<>(surplus.size());
        for (int i = surplus.size() - 1; i >= 0; i--) {
            oldestFirst.add(surplus.get(i).delivery());
        }
        CompletableFuture<Void> release = oldestFirst.isEmpty() ? CompletableFuture.completedFuture(null)
                : client.release(oldestFirst, false);
        logFailure(release, "release");
        release.whenComplete((done, failure) -> {
            givingBack.set(false);
            intake.resume();
            if (demand.idle() && prefetched.size() > 0) {
                giveBack();
            }
        });
    }

    /** The application asks for messages again: a feed waiting for room may pull. */
    private void wakeFeeds() {
        synchronized (space) {
            space.notifyAll();
        }
    }

    /** The connection started: the feeds may take messages in again. */
    void connectionStarted() {
        synchronized (space) {
            space.notifyAll();
        }
        scheduleListener();
    }

    /**
     * The connection stopped: nothing more is taken in, and what was prefetched goes back to the
     * broker uncounted, for consumers of started connections.
     */
    void connectionStopped() throws JMSException {
        releasePrefetched();
    }

    /**
     * Stops taking messages in (waiting for a pull in progress, at most its hold) and hands over
     * what is prefetched, oldest first, until {@link #resume}. Called by the session's thread.
     */
    List<Delivery> pause() {
        intake.pause();
        List<Received> unseen = new ArrayList<>();
        prefetched.drainTo(unseen);
        synchronized (space) {
            space.notifyAll();
        }
        return unseen.stream().map(Received::delivery).toList();
    }

    /** Takes messages in again after {@link #pause}. */
    void resume() {
        intake.resume();
    }

    /**
     * After a rollback: the prefetched messages the application never saw go back to the broker
     * uncounted, with the intake paused meanwhile, so that redelivery starts again with the
     * rolled-back ones.
     */
    void releasePrefetched() throws JMSException {
        List<Delivery> unseen = pause();
        try {
            JmsErrors.await(client.release(unseen, false));
        } finally {
            resume();
        }
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
        demand.enterReceive(); // a caller waiting to receive takes messages: its consumer is not idle
        try {
            return prefetched.awaitItem(Math.max(0, timeoutMillis), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            demand.leaveReceive();
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
        if (listener != null) {
            throw new IllegalStateException("the consumer has a message listener");
        }
        CompletableFuture<Void> askedNow = null;
        if (noWait && prefetched.size() == 0 && session.connection().isStarted()) {
            synchronized (space) {
                // asked before an idle consumer's feeds may pull again, so that their next pull is the prompt one
                askedNow = feeds.pullNow();
                demand.enterReceive();
                space.notifyAll();
            }
        } else {
            demand.enterReceive(); // wakes the feeds if the application was idle
        }
        try {
            if (askedNow != null) {
                awaitPullNow(askedNow);
            }
            return receiveEntered(timeoutMillis, noWait, bodyType);
        } finally {
            demand.leaveReceive();
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
                    Received received = take(noWait ? 0 : Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_SLICE_MILLIS)));
                    if (received != null) {
                        if (isClosed()) {
                            Delivery d = received.delivery();
                            logFailure(client.release(d.consumer(), List.of(d.position()), false), "release");
                            return null;
                        }
                        if (bodyType != null && !received.message().isBodyAssignableTo(bodyType)) {
                            prefetched.addFirst(received);
                            throw new MessageFormatException("the body of " + received.message().getJMSMessageID()
                                    + " cannot be read as " + bodyType.getName());
                        }
                        session.consumed(received.delivery());
                        prefetched.settled(received);
                        if (prefetched.size() == 0) {
                            session.caughtUp();
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
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        this.listener = listener;
        demand.listening(listener != null);
        scheduleListener();
    }

    /** Asks the session thread to deliver what is prefetched, when there is a listener and the connection runs. */
    void scheduleListener() {
        if (listener != null && !closed && session.connection().isStarted()) {
            session.dispatch(this::deliverToListener);
        }
    }

    /**
     * Where the session keeps consumed messages (CLIENT, transacted), a message counts as
     * consumed as soon as it is handed to the listener, so that {@code acknowledge},
     * {@code recover} or {@code commit} called from {@code onMessage} include it; otherwise it is
     * acknowledged once the listener returns, and redelivered if the listener throws.
     */
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
                caughtUp();
                return;
            }
            boolean keeps = session.keepsConsumedMessages();
            if (keeps) {
                consumed(received);
            }
            try {
                current.onMessage(received.message());
            } catch (RuntimeException e) {
                LOG.warn("listener of consumer {} threw; message redelivered", info.consumerId(), e);
                if (!keeps) {
                    Delivery d = received.delivery();
                    logFailure(client.release(d.consumer(), List.of(d.position()), true), "release");
                    prefetched.settled(received);
                    continue;
                }
            }
            if (!keeps && session.takeRecoverRequest()) {
                redeliverFromHere(received);
                continue;
            }
            if (!keeps) {
                consumed(received);
            }
        }
    }

    /**
     * recover() from the listener in AUTO or DUPS_OK mode: its message comes again, redelivered,
     * before what was prefetched behind it.
     */
    private void redeliverFromHere(Received current) {
        Delivery d = current.delivery();
        try {
            JmsErrors.await(client.release(d.consumer(), List.of(d.position()), true));
            releasePrefetched();
        } catch (JMSException e) {
            session.connection().onAsyncFailure(e);
        }
    }

    private void caughtUp() {
        try {
            session.caughtUp();
        } catch (JMSException e) {
            session.connection().onAsyncFailure(e);
        }
    }

    private void consumed(Received received) {
        try {
            session.consumed(received.delivery());
            prefetched.settled(received);
        } catch (JMSException e) {
            session.connection().onAsyncFailure(e);
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

    /**
     * Stops the feeds, waits for the session's acknowledgements still on their way, then detaches
     * from every broker: the broker gives back uncounted what was prefetched and never seen, and
     * keeps with the consumer what its session consumed and has still to settle. A pull held at
     * a broker is answered (empty) as the consumer detaches; its feed ends then, unwaited.
     */
    @Override
    public void close() throws JMSException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        demand.close();
        session.awaitListenerIdle();
        synchronized (space) {
            space.notifyAll();
        }
        List<ConsumerInfo> attached = feeds.stop();
        session.removed(this);
        try {
            session.awaitAcknowledgements();
        } catch (JMSException e) {
            LOG.debug("consumer {} of {}: an acknowledgement failed before close (reported already)",
                    info.consumerId(), destination, e);
        }
        List<CompletableFuture<Void>> detaches = new ArrayList<>();
        for (ConsumerInfo at : attached) {
            detaches.add(bestEffort(detachFrom(at), "detach"));
        }
        CompletableFuture.allOf(detaches.toArray(CompletableFuture[]::new)).join();
        prefetched.removeIf(r -> true);
    }

    /**
     * Drops the prefetched messages of a lost attachment (its broker gone): the broker delivers
     * them again, and the application never saw them.
     */
    void dropPrefetched(ConsumerInfo attachment) {
        int dropped = prefetched.removeIf(r -> r.delivery().consumer().equals(attachment));
        if (dropped > 0) {
            LOG.info("consumer {} of {}: {} prefetched message(s) of a lost attachment to {} dropped; the broker"
                    + " delivers them again", info.consumerId(), destination, dropped, attachment.brokerAddress());
            synchronized (space) {
                space.notifyAll();
            }
        }
    }

    /**
     * Detaches from {@code attachment}; a message of it the application is handling (a
     * listener's, not yet acknowledged) stays the session's: given back uncounted it would come
     * again without JMSRedelivered.
     */
    private CompletableFuture<Void> detachFrom(ConsumerInfo attachment) {
        Received inHand = prefetched.inHand();
        return session.detach(attachment, inHand == null || !inHand.delivery().consumer().equals(attachment)
                ? List.of() : List.of(inHand.delivery().position()));
    }

    /**
     * A call on close that may fail without harm: a broker that cannot be reached has dropped
     * this consumer with the transport, making what it held visible again.
     */
    private CompletableFuture<Void> bestEffort(CompletableFuture<Void> call, String what) {
        return call.exceptionally(failure -> {
            LOG.debug("consumer {} of {}: {} on close failed; the broker drops the consumer with the transport",
                    info.consumerId(), destination, what, failure);
            return null;
        });
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
