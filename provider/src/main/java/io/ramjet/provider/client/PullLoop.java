package io.ramjet.provider.client;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's feed from one broker, on a thread of its own: subscribes there if not yet
 * attached, then long-polls (PULL held up to {@code holdMillis}) for as many messages as the
 * prefetch has room for. When the broker goes away (transport failure) or
 * forgets the consumer (it restarted), the attachment is lost: what it prefetched is dropped
 * (the broker delivers it again) and the feed subscribes again, as a new attachment, every
 * {@code retryMillis}, so a broker that comes back is consumed from again. A broker that
 * refuses the subscription (a conflict only it knows of) is reported once and left alone.
 */
final class PullLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PullLoop.class);

    private final BrokerClient client;
    private final ConsumerInfo wanted;
    private final FeedSink sink;
    private final long holdMillis;
    private final long retryMillis;
    private final Thread thread;
    private volatile ConsumerInfo attached;
    private volatile boolean stopped;

    /** @param attached the consumer as already attached there, or null to subscribe first */
    PullLoop(BrokerClient client, ConsumerInfo wanted, ConsumerInfo attached, FeedSink sink, long holdMillis,
             long retryMillis) {
        this.client = client;
        this.wanted = wanted;
        this.attached = attached;
        this.sink = sink;
        this.holdMillis = holdMillis;
        this.retryMillis = retryMillis;
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
        while (!stopped) {
            boolean subscribing = attached == null;
            try {
                ConsumerInfo at = attached;
                if (at == null) {
                    at = client.subscribe(wanted).get();
                    if (stopped) {
                        client.closeConsumer(at, List.of());
                        return;
                    }
                    attached = at;
                    LOG.info("consumer {} attached to broker {}", wanted.consumerId(), wanted.brokerAddress());
                }
                int room = sink.room();
                if (room <= 0) {
                    sink.awaitRoom(holdMillis);
                    continue;
                }
                pull(at, room);
            } catch (InterruptedException e) {
                return;
            } catch (ExecutionException e) {
                if (stopped) {
                    return;
                }
                ClientException cause = ClientException.of(e.getCause());
                if (cause.isBrokerGone()) {
                    ConsumerInfo lost = attached;
                    if (lost != null) {
                        LOG.info("consumer {} lost broker {} ({}); subscribing again every {} ms",
                                wanted.consumerId(), wanted.brokerAddress(), cause.getMessage(), retryMillis);
                        attached = null;
                        sink.attachmentLost(lost);
                    }
                } else if (subscribing) {
                    sink.failed(wanted.brokerAddress(), cause);
                    LOG.warn("consumer {}: broker {} refused the subscription; not consuming from it",
                            wanted.consumerId(), wanted.brokerAddress());
                    return;
                } else {
                    sink.failed(wanted.brokerAddress(), cause);
                }
                try {
                    Thread.sleep(retryMillis);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private void pull(ConsumerInfo at, int room) throws InterruptedException, ExecutionException {
        Lock intake = sink.intake();
        intake.lockInterruptibly();
        try {
            int now = Math.min(room, sink.room());
            if (stopped || now <= 0) {
                return; // paused meanwhile (a stop, a rollback): the room was taken back
            }
            List<Delivery> deliveries = client.pull(at, now, holdMillis).get();
            if (!deliveries.isEmpty()) {
                sink.accept(deliveries);
            }
        } finally {
            intake.unlock();
        }
    }
}
