package io.ramjet.provider.jms;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's feed from one broker, on a thread of its own: subscribes there if not yet
 * attached, then long-polls (PULL held up to {@link RamjetMessageConsumer#HOLD_MILLIS}) for as
 * many messages as the prefetch has room for. When the broker goes away (transport failure) or
 * forgets the consumer (it restarted), the attachment is lost: what it prefetched is dropped
 * (the broker delivers it again) and the feed subscribes again, as a new attachment, every
 * {@value #RETRY_MILLIS} ms, so a broker that comes back is consumed from again. A broker that
 * refuses the subscription (a conflict only it knows of) is reported once and left alone.
 */
final class PullLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PullLoop.class);

    static final long RETRY_MILLIS = 500;

    /** Where the feed delivers, and the prefetch state it obeys. */
    interface Sink {
        /** How many more messages the prefetch takes now. */
        int room();

        /** Waits, at most {@code millis}, for the prefetch to have room. */
        void awaitRoom(long millis) throws InterruptedException;

        /** Held while a pull is in progress and its messages are taken in: a pause takes the other side. */
        Lock intake();

        /** The messages of one pull, taken in together (so priority orders them all). */
        void accept(List<Delivery> deliveries);

        /** The attachment's deliveries are gone (the broker restarted or dropped the connection). */
        void attachmentLost(ConsumerInfo attachment);

        /** A pull or subscribe failed for a reason other than the broker going away. */
        void failed(String address, Throwable failure);
    }

    private final RamjetClient client;
    private final ConsumerInfo wanted;
    private final Sink sink;
    private final Thread thread;
    private volatile ConsumerInfo attached;
    private volatile boolean stopped;

    /** @param attached the consumer as already attached there, or null to subscribe first */
    PullLoop(RamjetClient client, ConsumerInfo wanted, ConsumerInfo attached, Sink sink) {
        this.client = client;
        this.wanted = wanted;
        this.attached = attached;
        this.sink = sink;
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
                    sink.awaitRoom(RamjetMessageConsumer.HOLD_MILLIS);
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
                                wanted.consumerId(), wanted.brokerAddress(), cause.getMessage(), RETRY_MILLIS);
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
                    Thread.sleep(RETRY_MILLIS);
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
            List<Delivery> deliveries = client.pull(at, now, RamjetMessageConsumer.HOLD_MILLIS).get();
            if (!deliveries.isEmpty()) {
                sink.accept(deliveries);
            }
        } finally {
            intake.unlock();
        }
    }
}
