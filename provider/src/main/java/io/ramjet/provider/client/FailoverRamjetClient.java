package io.ramjet.provider.client;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.TxState;
import io.ramjet.provider.client.ClientException.Reason;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's failover policy, in one place: a {@link RamjetClient} over a {@link BrokerClient}
 * that sends each request once. What it adds:
 * <ul>
 *   <li><b>failover of sends</b>: a send whose group's master turns out to be gone (it could not
 *       be reached, the connection closed before the answer, or it is no longer master) waits for
 *       the NameServers to name the group's next master and is sent there, in order with the
 *       connection's other sends to the group ({@link GroupSends}); only after
 *       {@code failoverTimeout} without one does it go to another group. A transactional send is
 *       never resent: its transaction is doomed and rolls back; the next transaction's sends
 *       wait for the group's recovery.</li>
 *   <li><b>resubscription and rediscovery</b>: a consumer's feed ({@link BrokerFeeds},
 *       {@link PullLoop}) subscribes again to a broker that restarted or dropped the connection
 *       and, periodically, starts reading from brokers that began hosting its destination.</li>
 *   <li><b>the commit decision</b>: a decision whose answer is lost (or that finds the
 *       coordinator busy) is asked again, for the request timeout; the decision is idempotent.
 *       Its failure then says whether the transaction is certainly not committed.</li>
 *   <li><b>ordered releases</b>: the releases of one consumer attachment go out one after
 *       another ({@link OrderedReleases}), so the broker applies them in their order.</li>
 * </ul>
 * Every other request passes through as it is. Thread-safe.
 */
public final class FailoverRamjetClient implements RamjetClient {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverRamjetClient.class);
    private static final long DECISION_RETRY_DELAY_MILLIS = 100;
    private static final String DECISIONS = "transaction decisions";

    private final BrokerClient brokers;
    private final ClientOptions options;
    private final Duration decisionRetry;
    private final OrderedReleases releases;
    private final Map<String, GroupSends> groups = new ConcurrentHashMap<>();
    /** Orders the sends handed in, so that a group's failover resends them in the order of each producer. */
    private final OrderedHandOff sends = new OrderedHandOff();
    /** Route lookups and decisions asked again: one line per outage, not per request. */
    private final OutageLog outages = new OutageLog(LOG);

    /** @param brokers closed with this client */
    public FailoverRamjetClient(BrokerClient brokers, ConnectionInfo connection) {
        this.brokers = brokers;
        this.options = connection.options();
        this.decisionRetry = connection.requestTimeout();
        this.releases = new OrderedReleases(brokers::release);
    }

    /**
     * Hands the send to its group once every send handed in before it was handed to its own:
     * while a destination's route is being looked up, the sends waiting for it would otherwise go
     * out in whatever order the lookup's callbacks run (a {@link CompletableFuture} runs its
     * dependents newest first), breaking the producer's order, and an idempotent producer's
     * earlier sequences, arriving after a later one, would be taken for resends and dropped.
     * Once routes are known the send goes at once ({@link OrderedHandOff}).
     */
    @Override
    public CompletableFuture<Void> send(OutgoingMessage message, int queueChoice) {
        CompletableFuture<String> routed = groupOf(message, queueChoice, null);
        return sends.submit(routed, (group, sequence) -> group(group).send(sequence, message, queueChoice));
    }

    /**
     * The group the send goes to. A lookup that meets no master (none registered, gone, or no
     * answer in time: a group failing over, a cluster starting) is made again after the pauses of
     * a {@link Backoff}, for {@code failoverTimeout}, as a group's failover waits for its next
     * master; a refusal fails the send at once. The first lookup that meets an outage of the
     * destination's route logs it, the first answered after it says so ({@link OutageLog}).
     *
     * @param retries the pauses of the lookups so far, null before the first
     */
    private CompletableFuture<String> groupOf(OutgoingMessage message, int queueChoice, Backoff retries) {
        return brokers.groupOf(message.destination(), message.kind(), queueChoice).handle((group, failure) -> {
            if (failure == null) {
                routeAnswered(message.kind(), message.destination());
                return CompletableFuture.completedFuture(group);
            }
            ClientException cause = ClientException.of(failure);
            Backoff backoff = retries != null ? retries : new Backoff(options.failoverTimeout());
            if ((cause.isRefusal() && !cause.isMasterGone()) || backoff.expired()) {
                return CompletableFuture.<String>failedFuture(cause);
            }
            if (retries == null) {
                outages.unanswered(routeOf(message.kind(), message.destination()),
                        "no route for {} '{}' ({}); sends ask again for up to {} ms each", message.kind(),
                        message.destination(), cause.getMessage(), options.failoverTimeout());
            }
            return backoff.pause().thenCompose(paused -> groupOf(message, queueChoice, backoff));
        }).thenCompose(group -> group);
    }

    /**
     * The brokers hosting a new consumer's destination. A lookup that meets no master, or whose
     * creation of the destination gets no answer in time (a group starting: a SYNC master answers
     * a write once its group holds it), is made again after the pauses of a {@link Backoff}, for
     * {@code failoverTimeout}, as a send's lookup is; a refusal fails at once.
     *
     * @param retries the pauses of the lookups so far, null before the first
     */
    private CompletableFuture<List<String>> hostsOf(String destination, DestinationKind kind, Backoff retries) {
        return brokers.brokersOf(destination, kind).handle((hosts, failure) -> {
            if (failure == null) {
                routeAnswered(kind, destination);
                return CompletableFuture.completedFuture(hosts);
            }
            ClientException cause = ClientException.of(failure);
            Backoff backoff = retries != null ? retries : new Backoff(options.failoverTimeout());
            if ((cause.isRefusal() && !cause.isMasterGone()) || backoff.expired()) {
                return CompletableFuture.<List<String>>failedFuture(cause);
            }
            if (retries == null) {
                outages.unanswered(routeOf(kind, destination), "no broker serves {} '{}' yet ({}); asking again",
                        kind, destination, cause.getMessage());
            }
            return backoff.pause().thenCompose(paused -> hostsOf(destination, kind, backoff));
        }).thenCompose(hosts -> hosts);
    }

    /** A route lookup was answered: ends the route's outage, naming it only while some outage is logged. */
    private void routeAnswered(DestinationKind kind, String destination) {
        if (outages.anyOut()) {
            outages.answered(routeOf(kind, destination));
        }
    }

    private static String routeOf(DestinationKind kind, String destination) {
        return "route of " + kind + " '" + destination + "'";
    }

    private GroupSends group(String brokerName) {
        return groups.computeIfAbsent(brokerName, name -> new GroupSends(brokers, name, options.failoverTimeout()));
    }

    /** Waits for the group's failover under way, if any, then sends once; a master found gone starts one. */
    @Override
    public CompletableFuture<Void> sendInTransaction(OutgoingMessage message, int queueChoice, long transactionId,
                                                     Consumer<String> touching) {
        if (transactionId == 0) {
            throw new IllegalArgumentException("a transactional send needs a nonzero transaction id");
        }
        AtomicReference<String> tried = new AtomicReference<>();
        return brokers.groupOf(message.destination(), message.kind(), queueChoice).thenCompose(group ->
                group(group).settled().thenCompose(ready -> brokers.send(message, queueChoice, transactionId,
                        address -> {
                            tried.set(address);
                            touching.accept(address);
                        })).whenComplete((sent, failure) -> {
                            if (failure != null && ClientException.of(failure).isMasterGone()) {
                                group(group).masterLost(tried.get());
                            }
                        }));
    }

    @Override
    public ConsumerFeed consume(ConsumerInfo consumer, FeedSink sink) throws ClientException {
        List<String> known = brokers.knownBrokersOf(consumer.subscription().destination(),
                consumer.subscription().destinationKind());
        if (!known.isEmpty()) {
            // subscribe where the route already points, without a NameServer round trip first;
            // the feeds ask the NameServers at once for any other broker
            BrokerFeeds feeds = new BrokerFeeds(brokers, consumer, sink, options);
            try {
                feeds.start(known, false);
                return feeds;
            } catch (ClientException stale) {
                LOG.debug("consumer {}: the known brokers of {} failed ({}); asking the NameServers",
                        consumer.consumerId(), consumer.subscription().destination(), stale.toString());
            }
        }
        List<String> hosts;
        try {
            hosts = hostsOf(consumer.subscription().destination(), consumer.subscription().destinationKind(), null)
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClientException(Reason.FAILED, ClientException.Outcome.CERTAINLY_NOT_APPLIED, "interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw ClientException.of(e.getCause());
        }
        BrokerFeeds feeds = new BrokerFeeds(brokers, consumer, sink, options);
        feeds.start(hosts, true);
        return feeds;
    }

    @Override
    public CompletableFuture<Void> commitTransaction(String coordinator, long transactionId,
                                                     List<ConsumedMessages> consumed) {
        return decide(address -> brokers.endTransaction(address, transactionId, "", true, consumed), coordinator,
                transactionId, System.nanoTime() + decisionRetry.toNanos(), false, false);
    }

    /** As {@link #commitTransaction}: asked again while no answer comes; a repeat finds the first's decision. */
    @Override
    public CompletableFuture<Void> commitCounted(String brokerAddress, long transactionId, int halves,
                                                 List<ConsumedMessages> consumed) {
        return decide(address -> brokers.commitCounted(address, transactionId, halves, consumed), brokerAddress,
                transactionId, System.nanoTime() + decisionRetry.toNanos(), false, false);
    }

    /**
     * One attempt at the decision, and another after a short pause while no answer comes (or the
     * coordinator is busy, or refuses it while its in-sync set is below its minimum) until the
     * deadline. A coordinator whose master is gone is asked through
     * its group's master as the NameServers name it now: the decision and the transaction's
     * records are replicated there, so the new master either finds the decision or decides it.
     * {@code earlierMayHaveArrived}: an earlier attempt may have reached the coordinator, whose
     * answer was then lost. The first retry that meets an outage of the coordinators is logged,
     * not each retry nor each decision, and the first decision answered after it ({@link OutageLog}).
     */
    private CompletableFuture<Void> decide(Function<String, CompletableFuture<Void>> attempt, String coordinator,
                                           long id, long deadline, boolean earlierMayHaveArrived, boolean retrying) {
        return attempt.apply(coordinator).handle((done, f) -> {
            if (f == null) {
                outages.answered(DECISIONS);
                return CompletableFuture.<Void>completedFuture(null);
            }
            ClientException failure = ClientException.of(f);
            boolean busy = failure.reason() == Reason.BUSY || failure.reason() == Reason.TOO_FEW_REPLICAS;
            if ((failure.isRefusal() && !busy && !failure.isMasterGone()) || System.nanoTime() - deadline > 0) {
                return CompletableFuture.<Void>failedFuture(settled(failure, earlierMayHaveArrived));
            }
            if (!retrying) {
                outages.unanswered(DECISIONS, "transaction {}: no decision from coordinator {} ({}); decisions ask"
                        + " again for up to {} ms each", Long.toHexString(id), coordinator, failure.toString(),
                        decisionRetry.toMillis());
            }
            boolean mayHaveArrived = earlierMayHaveArrived || !failure.certainlyNotApplied();
            CompletableFuture<String> next = failure.isMasterGone() ? masterOfGroupAt(coordinator)
                    : CompletableFuture.completedFuture(coordinator);
            return next.thenCompose(address -> CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(
                            DECISION_RETRY_DELAY_MILLIS, TimeUnit.MILLISECONDS))
                    .thenCompose(paused -> decide(attempt, address, id, deadline, mayHaveArrived, true)));
        }).thenCompose(next -> next);
    }

    /** The master the NameServers name now for the group of the broker at {@code address}; that address if none. */
    private CompletableFuture<String> masterOfGroupAt(String address) {
        return brokers.groupAt(address)
                .thenCompose(group -> group == null ? CompletableFuture.<String>completedFuture(null)
                        : brokers.followMaster(group))
                .handle((master, failure) -> master == null ? address : master);
    }

    /**
     * The decision's last failure as its outcome: certainly not committed when the coordinator
     * says it rolled back, or when the last attempt certainly did not apply and no earlier one
     * may have reached the coordinator; else unknown.
     */
    private static ClientException settled(ClientException last, boolean earlierMayHaveArrived) {
        if (last.reason() == Reason.ROLLED_BACK || !earlierMayHaveArrived || !last.certainlyNotApplied()) {
            return last;
        }
        return new ClientException(last.reason(), ClientException.Outcome.OUTCOME_UNKNOWN, last.getMessage()
                + " (an earlier attempt may have reached the coordinator)", last);
    }

    @Override
    public CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions,
                                           boolean countDelivery) {
        return releases.release(consumer, positions, countDelivery);
    }

    // ---- passed through

    @Override
    public CompletableFuture<Void> connect() {
        return brokers.connect();
    }

    @Override
    public CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions) {
        return brokers.ack(consumer, positions);
    }

    @Override
    public CompletableFuture<Void> lazyAck(ConsumerInfo consumer, List<MessagePosition> positions) {
        return brokers.lazyAck(consumer, positions);
    }

    @Override
    public CompletableFuture<Void> closeConsumer(ConsumerInfo consumer, List<MessagePosition> kept) {
        return brokers.closeConsumer(consumer, kept);
    }

    @Override
    public CompletableFuture<Void> deleteSubscription(String clientId, String name) {
        return brokers.deleteSubscription(clientId, name);
    }

    @Override
    public CompletableFuture<String> createTemporaryDestination(DestinationKind kind) {
        return brokers.createTemporaryDestination(kind);
    }

    @Override
    public CompletableFuture<Void> deleteDestination(String name, DestinationKind kind) {
        return brokers.deleteDestination(name, kind);
    }

    @Override
    public void onBrokerConnectionLost(BiConsumer<String, String> listener) {
        brokers.onBrokerConnectionLost(listener);
    }

    @Override
    public CompletableFuture<Void> prepareTransaction(String brokerAddress, long transactionId, String xid,
                                                      String coordinator, List<ConsumedMessages> consumed) {
        return brokers.prepareTransaction(brokerAddress, transactionId, xid, coordinator, consumed);
    }

    @Override
    public CompletableFuture<Void> endTransaction(String brokerAddress, long transactionId, String xid, boolean commit,
                                                  List<ConsumedMessages> consumed) {
        return brokers.endTransaction(brokerAddress, transactionId, xid, commit, consumed);
    }

    @Override
    public CompletableFuture<List<String>> recoverXids() {
        return brokers.recoverXids();
    }

    @Override
    public CompletableFuture<List<String>> masterAddresses() {
        return brokers.masterAddresses();
    }

    @Override
    public void answerTransactionChecks(LongFunction<TxState> states) {
        brokers.answerTransactionChecks(states);
    }

    @Override
    public CompletableFuture<List<String>> brokersOf(String destination, DestinationKind kind) {
        return brokers.brokersOf(destination, kind);
    }

    @Override
    public CompletableFuture<ByteBuffer> readChunk(String brokerAddress, String destination, long uploadId,
                                                   long physicalOffset, byte[] into) {
        return brokers.readChunk(brokerAddress, destination, uploadId, physicalOffset, into);
    }

    @Override
    public CompletableFuture<BrowsePage> browse(String brokerAddress, String queue, String selector, int queueId,
                                                long fromOffset, int maxMessages) {
        return brokers.browse(brokerAddress, queue, selector, queueId, fromOffset, maxMessages);
    }

    @Override
    public CompletableFuture<Void> authenticate() {
        return brokers.authenticate();
    }

    @Override
    public CompletableFuture<Void> claimClientId(String clientId) {
        return brokers.claimClientId(clientId);
    }

    @Override
    public CompletableFuture<Void> releaseClientId(String clientId) {
        return brokers.releaseClientId(clientId);
    }

    /** Closes the transport, after ending the groups' recoveries: what waits for one fails now. */
    @Override
    public void close() {
        groups.values().forEach(GroupSends::close);
        brokers.close();
    }
}
