package io.ramjet.provider.client;

import io.ramjet.model.SubscriptionType;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's feed from one broker, on a thread of its own: subscribes there if not yet
 * attached, then long-polls (PULL held up to {@code holdMillis}) for as many messages as the
 * prefetch {@link FeedSink#reserve reserves}, with up to {@code pullsInFlight} pulls out at a
 * time, so the next batch is on its way while the application takes the last one. Answers are
 * taken in in the order their pulls were sent.
 *
 * <p>When the consumer reads from several brokers, their feeds share its prefetch, and a pull
 * held at a broker with nothing to give would keep the room it asked for from the feeds of
 * brokers with a backlog for as long as the broker holds it. So a pull that asks for room is
 * answered at once, with what the broker has; a broker that ran dry (a pull taken in brought
 * fewer messages than asked for), or that the feed has not pulled from yet since it attached, is
 * waited on with one held pull at a time for one message, which the prefetch does not count
 * ({@link FeedSink#mayAwaitOne}), until a pull brings all it asked for again. A pull that brings
 * all it asked for does not tell that the broker has more: only the answer of the next one does,
 * which is why that one may not be held. Such a consumer holds at most one message more than its
 * prefetch per broker it waits on. A consumer that reads from one broker holds its pulls for
 * its room.
 *
 * <p>When the broker goes away (transport failure) or forgets the consumer (it restarted), the
 * attachment is lost: what it prefetched is dropped
 * (the broker delivers it again) and the feed subscribes again, as a new attachment, every
 * {@code retryMillis}, so a broker that comes back is consumed from again; when it went away as
 * its group's master (unreachable, or no longer master), {@code masterGone} is told at once, so
 * that the group's next master is looked for. A broker that refuses the subscription (a conflict
 * only it knows of) is reported once and left alone.
 *
 * <p>{@link #pullNow} asks for one pull that the broker answers without holding it, unless a
 * pull is out already (a held pull is answered as soon as messages come): what an application's
 * {@code receiveNoWait} waits for when its consumer has stopped taking messages in.
 *
 * <p>A feed with no pull out (the prefetch has no room, or the application takes no messages)
 * {@link BrokerClient#touch touches} its broker once per {@code holdMillis}, as often as a held
 * pull would go out, so that it still sees the broker go away (the attachment is lost as after a
 * failed pull) and a lost connection is made again.
 *
 * <p>A pull without answer (no answer in time) may have been handed messages at the broker,
 * which stay delivered to the attachment: later pulls would bring the messages after them first,
 * breaking the producers' order, and the lost ones would come only once the attachment ends. So
 * the attachment of a queue or durable subscription is given up: the answers of its other pulls
 * are not taken in, what it prefetched is dropped, it is {@link FeedSink#detach detached} (the
 * broker gives back what the session never consumed) and the feed subscribes again, finding
 * those messages first.
 */
final class PullLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PullLoop.class);

    /** A pull of an attachment failed; handled on the feed's thread. */
    private record Failure(ConsumerInfo attachment, ClientException cause) {
    }

    private final BrokerClient client;
    private final ConsumerInfo wanted;
    private final FeedSink sink;
    private final long holdMillis;
    /** When the last pull or touch went out, nanos; only the feed's thread moves it. */
    private long lastRequest = System.nanoTime();
    private final long retryMillis;
    private final Semaphore pulls;
    private final int pullsInFlight;
    /** Asked for by {@link #pullNow}, completed once the answer of a pull sent after is taken in. */
    private final Queue<CompletableFuture<Void>> promptly = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final Runnable masterGone;
    /** Completes once the last pull sent has been taken in; only the feed's thread moves it. */
    private CompletableFuture<Void> takenIn = CompletableFuture.completedFuture(null);
    private volatile ConsumerInfo attached;
    private volatile Failure failure;
    /** The attachment given up after a pull without answer: the answers of its other pulls are not taken in. */
    private volatile ConsumerInfo abandoned;
    private volatile boolean stopped;
    /**
     * Whether the last pull taken in brought fewer messages than asked for, or none was taken in
     * since the feed attached (see the class comment).
     */
    private volatile boolean ranDry = true;
    /** Whether other feeds share the consumer's prefetch now. */
    private final BooleanSupplier sharesPrefetch;

    /**
     * @param attached   the consumer as already attached there, or null to subscribe first
     * @param masterGone told, on the feed's thread, each time the attachment is lost because the
     *                   broker stopped being reachable as its group's master
     * @param sharesPrefetch whether feeds from other brokers share the consumer's prefetch now
     */
    PullLoop(BrokerClient client, ConsumerInfo wanted, ConsumerInfo attached, FeedSink sink, ClientOptions options,
             Runnable masterGone, BooleanSupplier sharesPrefetch) {
        this.masterGone = masterGone;
        this.sharesPrefetch = sharesPrefetch;
        this.client = client;
        this.wanted = wanted;
        this.attached = attached;
        this.sink = sink;
        this.holdMillis = options.pullHoldMillis();
        this.retryMillis = options.resubscribeMillis();
        this.pullsInFlight = options.pullsInFlight();
        this.pulls = new Semaphore(pullsInFlight);
        this.thread = new Thread(this, "ramjet-consumer-" + Long.toHexString(wanted.consumerId()) + "@"
                + wanted.brokerAddress());
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** The consumer as attached to this broker now, or null while it is not. */
    ConsumerInfo attached() {
        return attached;
    }

    /** How the feed stands now: its attachment, pulls out, whether the broker ran dry, for a diagnosis. */
    String describe() {
        ConsumerInfo at = attached;
        return (at == null ? "not attached" : "attached as consumer " + at.consumerId()) + ", "
                + (pullsInFlight - pulls.availablePermits()) + " of " + pullsInFlight + " pulls out, last pull "
                + (ranDry ? "ran dry" : "filled") + (at != null && at.equals(abandoned) ? ", abandoned" : "")
                + (stopped ? ", stopped" : "") + ", last request "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastRequest) + " ms ago";
    }

    void stop() {
        stopped = true;
        completePrompt();
    }

    /**
     * One pull the broker answers at once, as the prefetch has room; completes once its answer is
     * taken in, or at once when a pull is out already, the feed is not attached or has stopped.
     */
    CompletableFuture<Void> pullNow() {
        CompletableFuture<Void> answered = new CompletableFuture<>();
        if (stopped || attached == null || pulls.availablePermits() < pullsInFlight) {
            answered.complete(null);
            return answered;
        }
        promptly.add(answered);
        if (stopped) {
            completePrompt();
        }
        return answered;
    }

    private void completePrompt() {
        for (CompletableFuture<Void> f; (f = promptly.poll()) != null; ) {
            f.complete(null);
        }
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                Failure failed = failure;
                if (failed != null) {
                    failure = null;
                    if (failed.attachment().equals(attached)) {
                        pullFailed(failed);
                    }
                } else if (attached == null) {
                    completePrompt();
                    subscribe();
                } else if (awaitsOne() && pulls.availablePermits() < pullsInFlight) {
                    awaitTakenIn(); // one pull at a time waits at a broker that ran dry
                } else {
                    pulls.acquire();
                    List<CompletableFuture<Void>> prompt = takePrompt();
                    if (failure != null) {
                        pulls.release();
                        prompt.forEach(f -> f.complete(null));
                    } else if (!pull(attached, prompt)) {
                        pulls.release();
                        prompt.forEach(f -> f.complete(null));
                        if (promptly.isEmpty()) {
                            sink.awaitRoom(holdMillis);
                            touchIfQuiet(attached);
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            LOG.debug("feed of consumer {} from {} interrupted", wanted.consumerId(), wanted.brokerAddress());
        } finally {
            completePrompt();
        }
    }

    /** Whether the next pull waits for one message outside the prefetch (see the class comment). */
    private boolean awaitsOne() {
        return ranDry && sharesPrefetch.getAsBoolean();
    }

    /** Waits, at most {@code holdMillis}, until the last pull sent has been taken in. */
    private void awaitTakenIn() throws InterruptedException {
        try {
            takenIn.get(holdMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // what became of the pull is the loop's to look at
        }
    }

    /** Touches the broker when nothing went to it for {@code holdMillis} and no pull is out. */
    private void touchIfQuiet(ConsumerInfo at) {
        long now = System.nanoTime();
        if (stopped || pulls.availablePermits() < pullsInFlight
                || now - lastRequest < TimeUnit.MILLISECONDS.toNanos(holdMillis)) {
            return;
        }
        lastRequest = now;
        client.touch(at).whenComplete((done, f) -> {
            if (f != null && !stopped && ClientException.of(f).isBrokerGone()) {
                failure = new Failure(at, ClientException.of(f));
            }
        });
    }

    /** What {@link #pullNow} asked for: answered by the next pull, if none is out besides it. */
    private List<CompletableFuture<Void>> takePrompt() {
        if (promptly.isEmpty()) {
            return List.of();
        }
        List<CompletableFuture<Void>> taken = new ArrayList<>();
        for (CompletableFuture<Void> f; (f = promptly.poll()) != null; ) {
            taken.add(f);
        }
        if (pulls.availablePermits() < pullsInFlight - 1) {
            taken.forEach(f -> f.complete(null)); // another pull is out: it is answered as messages come
            return List.of();
        }
        return taken;
    }

    /** Subscribes; a broker that refuses is reported and left alone (the feed stops). */
    private void subscribe() throws InterruptedException {
        ConsumerInfo at;
        try {
            at = client.subscribe(wanted).get();
        } catch (ExecutionException e) {
            if (stopped) {
                return;
            }
            ClientException cause = ClientException.of(e.getCause());
            if (!cause.isBrokerGone()) {
                sink.failed(wanted.brokerAddress(), cause);
                LOG.warn("consumer {}: broker {} refused the subscription; not consuming from it",
                        wanted.consumerId(), wanted.brokerAddress());
                stopped = true;
                return;
            }
            Thread.sleep(retryMillis);
            return;
        }
        if (stopped) {
            client.closeConsumer(at, List.of());
            return;
        }
        ranDry = true;
        attached = at;
        LOG.info("consumer {} attached to broker {}", wanted.consumerId(), wanted.brokerAddress());
    }

    /**
     * Sends a pull if the prefetch has room (at a broker that ran dry: if one message may be
     * waited for), holding a permit of {@link #pulls} until its answer is taken in; false when
     * there was no room (or a pause took it meanwhile). Answers are taken in in the order the
     * pulls were sent, whatever order they arrive in.
     *
     * @param prompt when not empty, the broker answers at once and these complete once the answer is taken in
     */
    private boolean pull(ConsumerInfo at, List<CompletableFuture<Void>> prompt) throws InterruptedException {
        Intake intake = sink.intake();
        intake.enter();
        boolean awaitingOne = awaitsOne();
        int asked = stopped ? 0 : awaitingOne ? (sink.mayAwaitOne() ? 1 : 0) : sink.reserve();
        if (asked <= 0) {
            intake.leave();
            return false;
        }
        CompletableFuture<Void> before = takenIn;
        lastRequest = System.nanoTime();
        int reserved = awaitingOne ? 0 : asked;
        boolean held = prompt.isEmpty() && (awaitingOne || !sharesPrefetch.getAsBoolean());
        takenIn = client.pull(at, asked, held ? holdMillis : 0)
                .handle((deliveries, f) -> f == null ? deliveries : failed(at, f))
                .thenCombine(before, (deliveries, previous) -> deliveries)
                .handle((deliveries, f) -> {
                    try {
                        boolean answered = deliveries != null && !at.equals(abandoned);
                        if (answered) {
                            ranDry = deliveries.size() < asked;
                        }
                        sink.accept(answered ? deliveries : List.of(), reserved);
                    } finally {
                        intake.leave();
                        pulls.release();
                    }
                    return null;
                });
        takenIn.whenComplete((done, f) -> prompt.forEach(p -> p.complete(null)));
        return true;
    }

    /** Detaches the attachment and waits until the broker has: the next subscription then finds its messages. */
    private void giveUp(ConsumerInfo attachment) throws InterruptedException {
        try {
            sink.detach(attachment).get();
        } catch (ExecutionException e) {
            LOG.info("consumer {}: detaching from broker {} failed ({}); its messages come back once the broker "
                    + "drops the attachment", wanted.consumerId(), wanted.brokerAddress(), e.getCause().toString());
        }
    }

    /** Records a pull's failure for the feed's thread; null: no answer. */
    private List<Delivery> failed(ConsumerInfo at, Throwable f) {
        ClientException cause = ClientException.of(f);
        if (givenUpAfter(at, cause)) {
            abandoned = at;
        }
        if (!stopped) {
            failure = new Failure(at, cause);
        }
        return null;
    }

    /**
     * Whether the attachment is given up after its pull failed so: the pull may have been handed
     * messages at a broker that is still there, and the subscription outlives a detach (a
     * non-durable topic subscription ends with its consumer, a shared one with its last, and
     * their messages with them: there the lost ones stay behind, as before).
     */
    private static boolean givenUpAfter(ConsumerInfo attachment, ClientException cause) {
        SubscriptionType type = attachment.subscription().type();
        return !cause.isBrokerGone() && !cause.certainlyNotApplied()
                && type != SubscriptionType.TOPIC && type != SubscriptionType.SHARED;
    }

    /**
     * A broker gone loses the attachment (its prefetched messages are dropped; the feed subscribes
     * again after {@code retryMillis}); a pull without answer gives it up (see the class comment;
     * the feed subscribes again at once); another failure is reported, and the feed waits
     * {@code retryMillis}.
     */
    private void pullFailed(Failure failed) throws InterruptedException {
        ClientException cause = failed.cause();
        if (cause.isBrokerGone()) {
            LOG.info("consumer {} lost broker {} ({}); subscribing again every {} ms",
                    wanted.consumerId(), wanted.brokerAddress(), cause.getMessage(), retryMillis);
            attached = null;
            sink.attachmentLost(failed.attachment());
            if (cause.isMasterGone()) {
                masterGone.run();
            }
        } else if (givenUpAfter(failed.attachment(), cause)) {
            LOG.warn("consumer {}: a pull from broker {} had no answer ({}); subscribing again, so that the messages "
                    + "it may have been handed come first", wanted.consumerId(), wanted.brokerAddress(), cause.getMessage());
            attached = null;
            sink.attachmentLost(failed.attachment());
            giveUp(failed.attachment());
            return;
        } else {
            sink.failed(wanted.brokerAddress(), cause);
        }
        Thread.sleep(retryMillis);
    }
}
