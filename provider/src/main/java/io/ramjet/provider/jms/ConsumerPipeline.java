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
 * listener. How much the feeds may ask for is the {@link PullWindow}'s business; the feeds wait
 * on it for room.
 *
 * <p>Thread-safe: the feeds (I/O and pull threads) bring messages in, the application's threads
 * and the session thread take them out, the connection's timer gives back an idle consumer's.
 * Called by {@link RamjetMessageConsumer} and its {@link ListenerDispatch}.
 */
final class ConsumerPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerPipeline.class);

    private final RamjetSession session;
    private final RamjetClient client;
    private final ConsumerInfo info;
    private final RamjetDestination destination;
    private final MessageAdmission admission;
    private final ConsumerCalls calls;
    /** Told when messages arrive: the listener, if any, is to take them. */
    private final Runnable arrived;
    private final PrefetchBuffer<Received> prefetched = new PrefetchBuffer<>(Received::priority,
            Received::bytes);
    private final PullWindow window;
    private final Intake intake = new Intake();
    /** Whether a {@link #giveBackHeld} is waiting or under way. */
    private final AtomicBoolean givingBack = new AtomicBoolean();
    /** Whether the application is taking messages; when it is not, the consumer holds none. */
    private final ApplicationDemand demand;
    /** Set once, as the consumer opens. */
    private volatile ConsumerFeed feeds;
    private volatile boolean closed;

    ConsumerPipeline(RamjetSession session, ConsumerInfo info, RamjetDestination destination, ConsumerCalls calls,
                     Runnable arrived) {
        this.session = session;
        this.client = session.connection().client();
        this.info = info;
        this.destination = destination;
        this.calls = calls;
        this.arrived = arrived;
        this.admission = new MessageAdmission(session, info, destination, calls);
        this.demand = new ApplicationDemand(RamjetMessageConsumer.IDLE_MILLIS, session.connection().timer(),
                this::giveBack, this::wakeFeeds);
        this.window = new PullWindow(prefetched, session.connection().info().options().prefetch(),
                session.connection().info().options().prefetchBytes(), info.soleConsumer(), () -> closed,
                () -> demand.idle() || !session.connection().isStarted());
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
        window.wake();
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
            return window.reserve();
        }

        @Override
        public boolean mayAwaitOne() {
            return window.mayAwaitOne();
        }

        @Override
        public void awaitRoom(long millis) throws InterruptedException {
            window.awaitRoom(millis);
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
            window.pulled(ready, reserved, size);
            if (!ready.isEmpty()) {
                if (demand.idle()) {
                    giveBack(); // a pull sent before the application went idle
                }
                arrived.run();
            }
        }

        @Override
        public void attachmentLost(ConsumerInfo attachment) {
            session.acknowledgement().attachmentLost(attachment);
            dropPrefetched(attachment);
        }

        @Override
        public CompletableFuture<Void> detach(ConsumerInfo attachment) {
            try {
                session.acknowledgement().awaitAcknowledgements();
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

    private static int sizeOf(Delivery delivery) {
        return delivery.size();
    }

    /** How the pipeline stands now, for a diagnosis: its prefetch, window, demand and each broker's feed. */
    String describe() {
        ConsumerFeed running = feeds;
        return "prefetched " + size() + " (" + bytes() + " B), " + window.describe() + ", application "
                + (demand.idle() ? "idle" : "taking messages") + (givingBack.get() ? ", giving back" : "")
                + (closed ? ", closed" : "") + "; feeds: " + (running == null ? "none" : running.describe());
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
            if (window.adapt(System.nanoTime() - received.arrivedAt())) {
                giveBack();
            }
            window.taken();
            if (received.message() == null) {
                received.admitted(closed ? null : admission.admit(received.delivery()));
            }
            if (received.message() != null) {
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
        return window.wakeAfter(() -> {
            // asked before an idle consumer's feeds may pull again, so that their next pull is the prompt one
            CompletableFuture<Void> askedNow = feeds.pullNow();
            demand.enterReceive();
            return askedNow;
        });
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
        window.wake();
    }

    /**
     * Stops taking messages in (waiting for a pull in progress, at most its hold) and hands over
     * what is prefetched, oldest first, until {@link #resume}. Called by the session's thread.
     */
    List<Delivery> pause() {
        intake.pause();
        List<Received> unseen = new ArrayList<>();
        prefetched.drainTo(unseen);
        window.wake();
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
            window.wake();
        }
    }

    /**
     * Detaches from {@code attachment}; a message of it the application is handling (a
     * listener's, not yet acknowledged) stays the session's: given back uncounted it would come
     * again without JMSRedelivered.
     */
    CompletableFuture<Void> detachFrom(ConsumerInfo attachment) {
        Received inHand = prefetched.inHand();
        return session.acknowledgement().detach(attachment, inHand == null || !inHand.delivery().consumer().equals(attachment)
                ? List.of() : List.of(inHand.delivery().position()));
    }
}
