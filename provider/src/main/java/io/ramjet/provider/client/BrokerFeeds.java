package io.ramjet.provider.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The brokers one consumer reads from: a {@link PullLoop} per broker that hosts its
 * destination, all feeding the same sink. Every {@code discoveryMillis} it asks for the
 * destination's brokers again and starts a feed for any new one (a broker that joined, a group's
 * new master after a failover, or one that started hosting the destination after a producer
 * moved there), and stops the feeds that lost their broker when it is no longer listed (an old
 * master), so they do not subscribe there forever. A feed whose broker went away as its group's
 * master does not wait for that: the group's next master is searched for at once
 * ({@link MasterSearch}, for {@code failoverTimeout}) and a feed started there, which subscribes
 * with the consumer's same terms (the subscription's state is the group's, replicated).
 * Thread-safe.
 */
final class BrokerFeeds implements ConsumerFeed {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFeeds.class);

    private final BrokerClient client;
    private final ConsumerInfo consumer;
    private final FeedSink sink;
    private final ClientOptions options;
    private final Map<String, PullLoop> feeds = new ConcurrentHashMap<>();
    private boolean stopped;

    /** @param consumer the consumer's terms, attached nowhere */
    BrokerFeeds(BrokerClient client, ConsumerInfo consumer, FeedSink sink, ClientOptions options) {
        this.client = client;
        this.consumer = consumer;
        this.sink = sink;
        this.options = options;
    }

    /**
     * Subscribes on every broker at once and starts their feeds, then the periodic discovery. A
     * refusal by any (a subscription conflict, a bad destination) undoes the others and is
     * thrown; a broker that cannot be reached is left to its feed to subscribe later, unless none
     * could be reached.
     *
     * @param asked whether {@code brokers} is the NameServers' fresh answer; when it is only what
     *              the client knew already, the discovery asks them at once instead of after its period
     */
    void start(List<String> brokers, boolean asked) throws ClientException {
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
            throw refusal != null ? refusal : unreachable;
        }
        // every feed is known before any pulls, so that each sees from its first pull whether it shares the prefetch
        List<PullLoop> added = new ArrayList<>();
        for (ConsumerInfo a : attached) {
            added.add(addFeed(a.brokerAddress(), a));
        }
        for (String address : brokers) {
            added.add(addFeed(address, null));
        }
        added.stream().filter(Objects::nonNull).forEach(PullLoop::start);
        if (asked) {
            discoverLater();
        } else {
            discover();
        }
    }

    /** Starts the feed from a broker unless there is one, or the feeds are stopped. */
    @Override
    public String describe() {
        StringBuilder out = new StringBuilder();
        feeds.forEach((address, feed) -> out.append(out.length() == 0 ? "" : "; ").append(address).append(": ")
                .append(feed.describe()));
        return out.length() == 0 ? "no broker feeds" : out.toString();
    }

    private void startFeed(String address, ConsumerInfo attached) {
        PullLoop feed = addFeed(address, attached);
        if (feed != null) {
            feed.start();
        }
    }

    /** Adds a feed from a broker, not started; null when there is one, or the feeds are stopped. */
    private PullLoop addFeed(String address, ConsumerInfo attached) {
        synchronized (feeds) {
            if (stopped || feeds.containsKey(address)) {
                return null;
            }
            PullLoop feed = new PullLoop(client, consumer.attachedTo(address), attached, sink, options,
                    () -> followGroupOf(address), () -> feeds.size() > 1);
            feeds.put(address, feed);
            return feed;
        }
    }

    /**
     * Starts a feed from the next master of the group whose master at {@code lost} went away, once
     * one is named; the search ends without one when the consumer closes or its feed at
     * {@code lost} attaches again (the master came back there).
     */
    private void followGroupOf(String lost) {
        client.groupAt(lost).thenCompose(group -> group == null ? CompletableFuture.<String>completedFuture(null)
                        : new MasterSearch(client, group, options.failoverTimeout())
                                .next(address -> !address.equals(lost) || followedAlready(lost)))
                .whenComplete((address, failure) -> {
                    if (address != null && !feeds.containsKey(address)) {
                        LOG.info("consumer {} of {}: broker {} took over from {} as its group's master",
                                consumer.consumerId(), consumer.subscription().destination(), address, lost);
                        startFeed(address, null);
                    }
                });
    }

    private boolean followedAlready(String lost) {
        synchronized (feeds) {
            if (stopped) {
                return true;
            }
        }
        PullLoop feed = feeds.get(lost);
        return feed != null && feed.attached() != null;
    }

    private void discoverLater() {
        CompletableFuture.delayedExecutor(options.discoveryMillis(), TimeUnit.MILLISECONDS).execute(this::discover);
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
                        stopFeedsOfBrokersGone(brokers);
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

    private void stopFeedsOfBrokersGone(List<String> brokers) {
        synchronized (feeds) {
            feeds.entrySet().removeIf(feed -> {
                if (brokers.contains(feed.getKey()) || feed.getValue().attached() != null) {
                    return false;
                }
                LOG.info("consumer {} of {}: broker {} no longer hosts it", consumer.consumerId(),
                        consumer.subscription().destination(), feed.getKey());
                feed.getValue().stop();
                return true;
            });
        }
    }

    @Override
    public CompletableFuture<Void> pullNow() {
        List<PullLoop> all;
        synchronized (feeds) {
            all = List.copyOf(feeds.values());
        }
        return CompletableFuture.allOf(all.stream().map(PullLoop::pullNow).toArray(CompletableFuture[]::new));
    }

    @Override
    public List<ConsumerInfo> stop() {
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
