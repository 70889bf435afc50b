package io.ramjet.provider.jms;

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
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's delivery pipeline: what its feeds bring from the brokers into one bounded
 * prefetch, how much they may ask for (the window, in messages and bytes), what goes back to the
 * brokers uncounted (an idle or slow application's surplus, a stopped connection's, a rollback's),
 * and the messages taken out, admitted ({@link MessageAdmission}), for {@code receive} and the
 * listener. {@link #space} guards what is asked for; the feeds wait on it for room.
 */
final class ConsumerPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerPipeline.class);

    /** The application keeps up when what it takes waited at most this long: the window may grow. */
    private static final long KEEP_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The application is behind when what it takes waited this long: the window shrinks to one. */
    private static final long BEHIND_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** What a message is taken to weigh until one has been seen: sizes a consumer's first pull. */
    private static final int FIRST_GUESS_BYTES = 128 * 1024;

    /**
     * A delivery prefetched, with its priority and when it came, nanos; its message is decoded
     * and admitted ({@link MessageAdmission}) when it is taken, on the thread that takes it, not
     * on the I/O thread that took the pull's answer in. Guarded by the thread that took it.
     */
    static final class Received {
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
    private final MessageAdmission admission;
    private final ConsumerCalls calls;
    /** Told when messages arrive: the listener, if any, is to take them. */
    private final Runnable arrived;
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
    private volatile boolean closed;
    /**
     * How many messages the feeds may prefetch now: one, doubling each time the application
     * empties the prefetch promptly, up to {@link #prefetch}, back to one once what it took
     * waited a second. A subscription's sole consumer starts at {@link #prefetch}: no other
     * consumer could take what it holds, and a start at one would cost it a round trip per
     * doubling on every new subscription.
     */
    private volatile int window;

    ConsumerPipeline(RamjetSession session, ConsumerInfo info, RamjetDestination destination, ConsumerCalls calls,
                     Runnable arrived) {
        this.session = session;
        this.client = session.connection().client();
        this.info = info;
        this.destination = destination;
        this.calls = calls;
        this.arrived = arrived;
        this.admission = new MessageAdmission(session, info, destination, calls);
        this.prefetch = session.connection().info().options().prefetch();
        this.prefetchBytes = session.connection().info().options().prefetchBytes();
        this.window = info.soleConsumer() ? prefetch : 1;
        this.demand = new ApplicationDemand(RamjetMessageConsumer.IDLE_MILLIS, session.connection().timer(),
                this::giveBack, this::wakeFeeds);
    }

    /** Starts the feeds from every broker that hosts the destination. */
    void open() throws JMSException {
        try {
            feeds = client.consume(info, new Feed());
        } catch (ClientException e) {
            throw JmsErrors.toJms(e);
        }
        demand.start();
    }

    /** Whether the application is taking messages. */
    ApplicationDemand demand() {
        return demand;
    }

    boolean closed() {
        return closed;
    }

    /** Marks the consumer closed: from now on nothing is taken in; false when it was already. */
    synchronized boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    /** Wakes the feeds waiting for room and stops them; the attachments they had. */
    List<ConsumerInfo> stopFeeds() {
        synchronized (space) {
            space.notifyAll();
        }
        return feeds.stop();
    }

    /** Forgets what is still prefetched, once the consumer is detached. */
    void clear() {
        prefetched.removeIf(r -> true);
    }

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
                arrived.run();
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

    /** Messages waiting in the prefetch. */
    int size() {
        return prefetched.size();
    }

    /** Bytes of the messages waiting in the prefetch. */
    long bytes() {
        return prefetched.bytes();
    }

    /**
     * The next prefetched message the application is to see, admitted; what admission drops is
     * passed over, and nothing is admitted once the consumer is closing (closing detaches the
     * consumer, which gives back uncounted what it never saw).
     */
    Received take(long timeoutNanos) throws InterruptedException {
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
                received.message = closed ? null : admission.admit(received.delivery);
            }
            if (received.message != null) {
                return received;
            }
        }
    }

    /** Puts a message taken back at the head, unconsumed. */
    void putBack(Received received) {
        prefetched.addFirst(received);
    }

    /** The application is done with a message taken (consumed, or released). */
    void settled(Received received) {
        prefetched.settled(received);
    }

    /** Waits up to {@code timeoutMillis} until a message is prefetched, taking none. */
    boolean awaitMessage(long timeoutMillis) throws InterruptedException {
        return prefetched.awaitItem(Math.max(0, timeoutMillis), TimeUnit.MILLISECONDS);
    }

    /**
     * A receive enters that is to find what is "immediately available": asks the brokers at once
     * ({@link ConsumerFeed#pullNow}); their answers complete the future.
     */
    CompletableFuture<Void> enterReceiveAskingNow() {
        synchronized (space) {
            // asked before an idle consumer's feeds may pull again, so that their next pull is the prompt one
            CompletableFuture<Void> askedNow = feeds.pullNow();
            demand.enterReceive();
            space.notifyAll();
            return askedNow;
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
        calls.logFailure(release, "release");
        release.whenComplete((done, failure) -> {
            givingBack.set(false);
            intake.resume();
            if (demand.idle() && prefetched.size() > 0) {
                giveBack();
            }
        });
    }

    /** The application asks for messages again, or the connection started: a feed waiting for room may pull. */
    void wakeFeeds() {
        synchronized (space) {
            space.notifyAll();
        }
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
     * The prefetched messages the application never saw go back to the broker uncounted, with
     * the intake paused meanwhile, so that redelivery starts again with the ones given back.
     */
    void releasePrefetched() throws JMSException {
        List<Delivery> unseen = pause();
        try {
            JmsErrors.await(client.release(unseen, false));
        } finally {
            resume();
        }
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
    CompletableFuture<Void> detachFrom(ConsumerInfo attachment) {
        Received inHand = prefetched.inHand();
        return session.detach(attachment, inHand == null || !inHand.delivery().consumer().equals(attachment)
                ? List.of() : List.of(inHand.delivery().position()));
    }
}
