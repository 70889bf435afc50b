package io.ramjet.provider.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's feed from one broker, on a thread of its own: subscribes there if not yet
 * attached, then long-polls (PULL held up to {@code holdMillis}) for as many messages as the
 * prefetch {@link FeedSink#reserve reserves}, with up to {@code pullsInFlight} pulls out at a
 * time, so the next batch is on its way while the application takes the last one. Answers are
 * taken in in the order their pulls were sent. When the broker goes away (transport failure) or
 * forgets the consumer (it restarted), the attachment is lost: what it prefetched is dropped
 * (the broker delivers it again) and the feed subscribes again, as a new attachment, every
 * {@code retryMillis}, so a broker that comes back is consumed from again; when it went away as
 * its group's master (unreachable, or no longer master), {@code masterGone} is told at once, so
 * that the group's next master is looked for. A broker that refuses the subscription (a conflict
 * only it knows of) is reported once and left alone.
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
    private final long retryMillis;
    private final Semaphore pulls;
    private final Thread thread;
    private final Runnable masterGone;
    /** Completes once the last pull sent has been taken in; only the feed's thread moves it. */
    private CompletableFuture<Void> takenIn = CompletableFuture.completedFuture(null);
    private volatile ConsumerInfo attached;
    private volatile Failure failure;
    private volatile boolean stopped;

    /**
     * @param attached   the consumer as already attached there, or null to subscribe first
     * @param masterGone told, on the feed's thread, each time the attachment is lost because the
     *                   broker stopped being reachable as its group's master
     */
    PullLoop(BrokerClient client, ConsumerInfo wanted, ConsumerInfo attached, FeedSink sink, ClientOptions options,
             Runnable masterGone) {
        this.masterGone = masterGone;
        this.client = client;
        this.wanted = wanted;
        this.attached = attached;
        this.sink = sink;
        this.holdMillis = options.pullHoldMillis();
        this.retryMillis = options.resubscribeMillis();
        this.pulls = new Semaphore(options.pullsInFlight());
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

    void stop() {
        stopped = true;
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
                    subscribe();
                } else {
                    pulls.acquire();
                    if (failure != null) {
                        pulls.release();
                    } else if (!pull(attached)) {
                        pulls.release();
                        sink.awaitRoom(holdMillis);
                    }
                }
            }
        } catch (InterruptedException e) {
            LOG.debug("feed of consumer {} from {} interrupted", wanted.consumerId(), wanted.brokerAddress());
        }
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
        attached = at;
        LOG.info("consumer {} attached to broker {}", wanted.consumerId(), wanted.brokerAddress());
    }

    /**
     * Sends a pull if the prefetch has room, holding a permit of {@link #pulls} until its answer
     * is taken in; false when there was no room (or a pause took it meanwhile). Answers are taken
     * in in the order the pulls were sent, whatever order they arrive in.
     */
    private boolean pull(ConsumerInfo at) throws InterruptedException {
        Intake intake = sink.intake();
        intake.enter();
        int reserved = stopped ? 0 : sink.reserve();
        if (reserved <= 0) {
            intake.leave();
            return false;
        }
        CompletableFuture<Void> before = takenIn;
        takenIn = client.pull(at, reserved, holdMillis)
                .handle((deliveries, f) -> f == null ? deliveries : failed(at, f))
                .thenCombine(before, (deliveries, previous) -> deliveries)
                .handle((deliveries, f) -> {
                    try {
                        sink.accept(deliveries == null ? List.of() : deliveries, reserved);
                    } finally {
                        intake.leave();
                        pulls.release();
                    }
                    return null;
                });
        return true;
    }

    /** Records a pull's failure for the feed's thread; no messages. */
    private List<Delivery> failed(ConsumerInfo at, Throwable f) {
        if (!stopped) {
            failure = new Failure(at, ClientException.of(f));
        }
        return List.of();
    }

    /**
     * A broker gone loses the attachment (its prefetched messages are dropped; the feed subscribes
     * again); another failure is reported. Either way the feed waits {@code retryMillis}.
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
        } else {
            sink.failed(wanted.brokerAddress(), cause);
        }
        Thread.sleep(retryMillis);
    }
}
