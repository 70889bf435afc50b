package io.ramjet.provider.jms;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.error.JmsErrors;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The brokers one consumer reads from: a {@link PullLoop} per broker that hosts its
 * destination, all feeding the same sink. Every {@value #DISCOVERY_MILLIS} ms it asks for the
 * destination's brokers again and starts a feed for any new one (a broker that joined, or that
 * started hosting the destination after a producer moved there). Thread-safe.
 */
final class BrokerFeeds {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFeeds.class);

    static final long DISCOVERY_MILLIS = 2_000;

    private final RamjetClient client;
    private final ConsumerInfo consumer;
    private final PullLoop.Sink sink;
    private final Map<String, PullLoop> feeds = new ConcurrentHashMap<>();
    private boolean stopped;

    /** @param consumer the consumer's terms, attached nowhere */
    BrokerFeeds(RamjetClient client, ConsumerInfo consumer, PullLoop.Sink sink) {
        this.client = client;
        this.consumer = consumer;
        this.sink = sink;
    }

    /**
     * Subscribes on every broker at once and starts their feeds, then the periodic discovery. A
     * refusal by any (a subscription conflict, a bad destination) undoes the others and is
     * thrown; a broker that cannot be reached is left to its feed to subscribe later, unless none
     * could be reached.
     */
    void start(List<String> brokers) throws JMSException {
        List<CompletableFuture<ConsumerInfo>> subscribes = new ArrayList<>();
        for (String address : brokers) {
            subscribes.add(client.subscribe(consumer.attachedTo(address)));
        }
        CompletableFuture.allOf(subscribes.toArray(CompletableFuture[]::new)).exceptionally(f -> null).join();
        ClientException refusal = null;
        ClientException unreachable = null;
        List<ConsumerInfo> attached = new ArrayList<>();
        for (CompletableFuture<ConsumerInfo> s : subscribes) {
            ClientException failure = s.handle((done, f) -> f == null ? null : ClientException.of(f)).join();
            if (failure == null) {
                attached.add(s.join());
            } else if (failure.isRefusal()) {
                refusal = refusal == null ? failure : refusal;
            } else {
                unreachable = unreachable == null ? failure : unreachable;
            }
        }
        if (refusal != null || attached.isEmpty()) {
            for (ConsumerInfo a : attached) {
                client.closeConsumer(a, List.of()).exceptionally(f -> null);
            }
            throw JmsErrors.toJms(refusal != null ? refusal : unreachable);
        }
        for (ConsumerInfo a : attached) {
            startFeed(a.brokerAddress(), a);
        }
        for (String address : brokers) {
            startFeed(address, null);
        }
        discoverLater();
    }

    /** Starts the feed from a broker unless there is one, or the feeds are stopped. */
    private void startFeed(String address, ConsumerInfo attached) {
        synchronized (feeds) {
            if (stopped || feeds.containsKey(address)) {
                return;
            }
            PullLoop feed = new PullLoop(client, consumer.attachedTo(address), attached, sink);
            feeds.put(address, feed);
            feed.start();
        }
    }

    private void discoverLater() {
        CompletableFuture.delayedExecutor(DISCOVERY_MILLIS, TimeUnit.MILLISECONDS).execute(this::discover);
    }

    private void discover() {
        synchronized (feeds) {
            if (stopped) {
                return;
            }
        }
        client.brokersOf(consumer.subscription().destination(), consumer.subscription().destinationKind())
                .whenComplete((brokers, failure) -> {
                    if (brokers != null) {
                        for (String address : brokers) {
                            if (!feeds.containsKey(address)) {
                                LOG.info("consumer {} of {}: broker {} hosts it too", consumer.consumerId(),
                                        consumer.subscription().destination(), address);
                                startFeed(address, null);
                            }
                        }
                    }
                    discoverLater();
                });
    }

    /**
     * Stops every feed, without waiting for a pull in progress (it is answered when the consumer
     * detaches), and returns the consumer as attached to each broker, to detach it there.
     */
    List<ConsumerInfo> stop() {
        List<PullLoop> all;
        synchronized (feeds) {
            stopped = true;
            all = List.copyOf(feeds.values());
        }
        List<ConsumerInfo> attached = new ArrayList<>();
        for (PullLoop feed : all) {
            feed.stop();
            if (feed.attached() != null) {
                attached.add(feed.attached());
            }
        }
        return attached;
    }
}
