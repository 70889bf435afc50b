package io.ramjet.provider.client;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.model.TxState;
import io.ramjet.provider.client.ClientException.Outcome;
import io.ramjet.provider.client.ClientException.Reason;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * A broker in memory, as a {@link BrokerClient} sees it: one broker ({@value #ADDRESS}), one
 * message queue per destination, no disk, no selectors, no delays or expiry. Enough for the
 * façade's sessions, producers, consumers and transactions, so that a test of their behaviour
 * needs no real broker; failures are injected ({@link #refuseSends}, {@link #failCommits} ...).
 * Several clients made by one {@link Broker} share its state, as connections share a broker.
 * Thread-safe: one lock, the broker's.
 */
public final class InMemoryBrokerClient implements BrokerClient {

    public static final String ADDRESS = "in-memory:1";
    public static final String GROUP = "in-memory";

    /** The shared state of the broker, and what it is told to fail. */
    public static final class Broker {
        private final Map<SubscriptionRef, List<Entry>> subscriptions = new LinkedHashMap<>();
        private final Map<Long, List<Sent>> halfMessages = new HashMap<>();
        private final Set<String> clientIds = new HashSet<>();
        private final AtomicInteger commitAttempts = new AtomicInteger();
        private final Semaphore commitsSeen = new Semaphore(0);
        private final AtomicInteger sendAttempts = new AtomicInteger();
        private final List<OutgoingMessage> sendsSeen = new CopyOnWriteArrayList<>();
        private final List<String> routedAround = new CopyOnWriteArrayList<>();
        private final AtomicInteger mastersAsked = new AtomicInteger();
        private final AtomicInteger sendsToFail = new AtomicInteger();
        private final AtomicInteger sendsToHold = new AtomicInteger();
        private final Queue<ClientException> nextSendFailures = new ConcurrentLinkedQueue<>();
        private final List<HeldSend> heldSends = new CopyOnWriteArrayList<>();
        private final AtomicInteger largestPull = new AtomicInteger();
        private volatile ClientException sendFailure;
        private volatile ClientException commitFailure;
        private volatile ClientException prepareFailure;
        private volatile ClientException rollbackFailure;
        private volatile ClientException connectFailure;
        private volatile boolean refusesCredentials;
        private volatile boolean unregistered;
        /** The group's master: a commit decision sent elsewhere finds no broker there. */
        private volatile String masterAddress = ADDRESS;
        private final List<String> commitAddresses = new CopyOnWriteArrayList<>();
        private long nextOffset;

        /** A client for one connection to this broker. */
        public BrokerClient client(ConnectionInfo connection) {
            return new InMemoryBrokerClient(this, connection);
        }

        /** Every send fails with {@code failure} (null: none does). */
        public void refuseSends(ClientException failure) {
            failSends(Integer.MAX_VALUE, failure);
        }

        /** The next {@code count} sends fail with {@code failure}, having stored nothing. */
        public void failSends(int count, ClientException failure) {
            sendFailure = failure;
            sendsToFail.set(failure == null ? 0 : count);
        }

        /**
         * The next {@code count} sends (not failed by {@link #failSends}) reach the broker and stay
         * unanswered until {@link #failHeldSends} or {@link #storeHeldSends}.
         */
        public void holdSends(int count) {
            sendsToHold.set(count);
        }

        /** The sends held unanswered fail with {@code failure}, having stored nothing. */
        public void failHeldSends(ClientException failure) {
            List<HeldSend> held = List.copyOf(heldSends);
            heldSends.clear();
            held.forEach(send -> send.answer().completeExceptionally(failure));
        }

        /** The sends held unanswered are stored, then answered. */
        public void storeHeldSends() {
            List<HeldSend> held = List.copyOf(heldSends);
            heldSends.clear();
            for (HeldSend send : held) {
                synchronized (this) {
                    store(this, send.sent());
                }
                send.answer().complete(null);
            }
        }

        /** The first body byte of each message stored in a queue, in the order stored. */
        public synchronized List<Byte> storedFirstBytes(String queue) {
            return subscriptions.getOrDefault(SubscriptionRef.queue(queue), List.of()).stream()
                    .map(e -> e.body[0]).toList();
        }

        /** The next sends fail, one with each of {@code failures} in turn, having stored nothing. */
        public void failNextSends(ClientException... failures) {
            nextSendFailures.addAll(List.of(failures));
        }

        /** The most messages one pull asked for so far. */
        public int largestPull() {
            return largestPull.get();
        }

        /** How many sends reached this broker, failed or not. */
        public int sendAttempts() {
            return sendAttempts.get();
        }

        /** How many times the client asked for the group's master. */
        public int mastersAsked() {
            return mastersAsked.get();
        }

        /** The message of every send that reached this broker, failed or not, in order. */
        public List<OutgoingMessage> sendsSeen() {
            return List.copyOf(sendsSeen);
        }

        /** The brokers the client was told to route around, in order. */
        public List<String> routedAround() {
            return List.copyOf(routedAround);
        }

        /** Every commit decision fails with {@code failure}, having done nothing (null: none does). */
        public void failCommits(ClientException failure) {
            commitFailure = failure;
        }

        /** Votes (and then rollbacks) fail with these; null for none. */
        public void failPrepares(ClientException vote, ClientException rollback) {
            prepareFailure = vote;
            rollbackFailure = rollback;
        }

        /** Connecting fails with {@code failure}, as when no NameServer answers. */
        public void failConnect(ClientException failure) {
            connectFailure = failure;
        }

        /** Every connection with credentials is refused. */
        /** The NameServer lists no master (the broker restarting, not yet registered again). */
        public void unregister() {
            unregistered = true;
        }

        /** The NameServer lists the broker as master again. */
        public void register() {
            unregistered = false;
        }

        public void refuseCredentials() {
            refusesCredentials = true;
        }

        /** The group's master moves to {@code address} (a failover): the old address answers nothing more. */
        public void moveMaster(String address) {
            masterAddress = address;
        }

        /** The address of every commit decision, in order. */
        public List<String> commitAddresses() {
            return List.copyOf(commitAddresses);
        }

        /** How many commit decisions reached this broker. */
        public int commitAttempts() {
            return commitAttempts.get();
        }

        /** Waits until {@code count} more commit decisions reached this broker; false after the timeout. */
        public boolean awaitCommitAttempts(int count, Duration timeout) throws InterruptedException {
            return commitsSeen.tryAcquire(count, timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        /** Messages of a queue not yet acknowledged, delivered or not. */
        public synchronized int unacknowledged(String queue) {
            return (int) subscriptions.getOrDefault(SubscriptionRef.queue(queue), List.of()).stream()
                    .filter(e -> !e.acked).count();
        }
    }

    private record Sent(String destination, DestinationKind kind, byte[] properties, byte[] body) {
    }

    /** A send the broker holds unanswered, and what it will answer. */
    private record HeldSend(Sent sent, CompletableFuture<Void> answer) {
    }

    private static final class Entry {
        final long offset;
        final byte[] properties;
        final byte[] body;
        int deliveryCount;
        long heldBy;
        boolean held;
        boolean acked;

        Entry(long offset, byte[] properties, byte[] body) {
            this.offset = offset;
            this.properties = properties;
            this.body = body;
        }
    }

    private final Broker broker;
    private final AtomicInteger temporaries = new AtomicInteger();
    private final ConnectionInfo connection;
    private final ExecutorService pulls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "in-memory-pull");
        t.setDaemon(true);
        return t;
    });

    private final Map<Long, CompletableFuture<List<Delivery>>> lastPulls = new ConcurrentHashMap<>();

    private InMemoryBrokerClient(Broker broker, ConnectionInfo connection) {
        this.broker = broker;
        this.connection = connection;
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    private static <T> CompletableFuture<T> failed(ClientException failure) {
        return CompletableFuture.failedFuture(failure);
    }

    @Override
    public CompletableFuture<Void> connect() {
        ClientException failure = broker.connectFailure;
        return failure != null ? failed(failure) : done(null);
    }

    @Override
    public CompletableFuture<Void> authenticate() {
        return broker.refusesCredentials && connection.credentials() != null
                ? failed(ClientException.refused(Reason.SECURITY, "credentials refused")) : done(null);
    }

    @Override
    public CompletableFuture<Void> send(OutgoingMessage m, int queueChoice, long transactionId,
                                        Consumer<String> touching) {
        touching.accept(ADDRESS);
        broker.sendAttempts.incrementAndGet();
        broker.sendsSeen.add(m);
        ClientException next = broker.nextSendFailures.poll();
        if (next != null) {
            return failed(next);
        }
        ClientException failure = broker.sendFailure;
        if (failure != null && broker.sendsToFail.getAndDecrement() > 0) {
            return failed(failure);
        }
        Sent sent = new Sent(m.destination(), m.kind(), m.properties(), m.body());
        if (transactionId == 0 && broker.sendsToHold.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            HeldSend held = new HeldSend(sent, new CompletableFuture<>());
            broker.heldSends.add(held);
            return held.answer();
        }
        synchronized (broker) {
            if (transactionId != 0) {
                broker.halfMessages.computeIfAbsent(transactionId, id -> new ArrayList<>()).add(sent);
            } else {
                store(sent);
            }
        }
        return done(null);
    }

    /** One broker, one group: the group's master is this broker. */
    @Override
    public CompletableFuture<Void> sendToGroup(OutgoingMessage m, String brokerName, int queueChoice,
                                               Consumer<String> touching) {
        return send(m, queueChoice, 0, touching);
    }

    /** Appends a message to every subscription of its destination (a queue's is made on first use). */
    private void store(Sent sent) {
        store(broker, sent);
    }

    /** Appends a message to every subscription of its destination, with the broker's lock held. */
    private static void store(Broker broker, Sent sent) {
        if (sent.kind() == DestinationKind.QUEUE) {
            broker.subscriptions.computeIfAbsent(SubscriptionRef.queue(sent.destination()), s -> new ArrayList<>());
        }
        broker.subscriptions.forEach((ref, entries) -> {
            if (ref.destination().equals(sent.destination()) && ref.destinationKind() == sent.kind()) {
                entries.add(new Entry(broker.nextOffset++, sent.properties(), sent.body()));
            }
        });
        broker.notifyAll();
    }

    @Override
    public void routeAround(String destination, DestinationKind kind, String failedBroker) {
        broker.routedAround.add(failedBroker); // one broker: nowhere else to go
    }

    @Override
    public CompletableFuture<String> groupOf(String destination, DestinationKind kind, int queueChoice) {
        return done(GROUP);
    }

    /** The one broker is its group's master whenever it is registered. */
    @Override
    public CompletableFuture<String> followMaster(String brokerName) {
        broker.mastersAsked.incrementAndGet();
        return done(broker.unregistered ? null : broker.masterAddress);
    }

    @Override
    public CompletableFuture<String> groupAt(String address) {
        return done(ADDRESS.equals(address) || broker.masterAddress.equals(address) ? GROUP : null);
    }

    @Override
    public CompletableFuture<ConsumerInfo> subscribe(ConsumerInfo consumer) {
        synchronized (broker) {
            broker.subscriptions.computeIfAbsent(consumer.subscription(), s -> new ArrayList<>());
        }
        return done(consumer.withConsumerId(ConsumerIds.next()).attachedTo(ADDRESS));
    }

    @Override
    public CompletableFuture<List<Delivery>> pull(ConsumerInfo consumer, int maxMessages, long holdMillis) {
        broker.largestPull.accumulateAndGet(maxMessages, Math::max);
        if (pulls.isShutdown()) {
            return failed(new ClientException(Reason.CONNECTION_LOST, Outcome.CERTAINLY_NOT_APPLIED, "closed", null));
        }
        // One consumer's pulls are answered in the order they were asked, as the broker's in-order
        // lane does: on a pool alone, two pulls of one consumer could overtake each other.
        return lastPulls.compute(consumer.consumerId(), (id, previous) ->
                (previous == null ? CompletableFuture.<Object>completedFuture(null) : previous.handle((t, f) -> null))
                        .thenApplyAsync(ready -> hold(consumer, maxMessages, holdMillis), pulls));
    }

    private List<Delivery> hold(ConsumerInfo consumer, int maxMessages, long holdMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(holdMillis);
        synchronized (broker) {
            while (true) {
                List<Delivery> taken = take(consumer, maxMessages);
                long left = deadline - System.nanoTime();
                if (!taken.isEmpty() || left <= 0) {
                    return taken;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(broker, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return taken;
                }
            }
        }
    }

    private List<Delivery> take(ConsumerInfo consumer, int maxMessages) {
        List<Delivery> taken = new ArrayList<>();
        for (Entry e : broker.subscriptions.getOrDefault(consumer.subscription(), List.of())) {
            if (taken.size() == maxMessages) {
                break;
            }
            if (!e.acked && !e.held) {
                e.held = true;
                e.heldBy = consumer.consumerId();
                e.deliveryCount++;
                taken.add(new Delivery(consumer, new MessagePosition(0, e.offset), e.deliveryCount, e.properties,
                        e.body));
            }
        }
        return taken;
    }

    private Entry entry(ConsumerInfo consumer, MessagePosition position) {
        for (Entry e : broker.subscriptions.getOrDefault(consumer.subscription(), List.of())) {
            if (e.offset == position.queueOffset() && e.held && !e.acked && e.heldBy == consumer.consumerId()) {
                return e;
            }
        }
        return null;
    }

    @Override
    public CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions) {
        synchronized (broker) {
            boolean allHeld = true;
            for (MessagePosition p : positions) {
                Entry e = entry(consumer, p);
                if (e == null) {
                    allHeld = false;
                } else {
                    e.acked = true;
                }
            }
            return allHeld ? done(null) : failed(ClientException.refused(Reason.NOT_HELD, "not held"));
        }
    }

    @Override
    public CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions,
                                           boolean countDelivery) {
        synchronized (broker) {
            for (MessagePosition p : positions) {
                Entry e = entry(consumer, p);
                if (e != null) {
                    makeVisible(e, countDelivery);
                }
            }
            return done(null);
        }
    }

    private void makeVisible(Entry e, boolean countDelivery) {
        e.held = false;
        if (!countDelivery) {
            e.deliveryCount--;
        }
        broker.notifyAll();
    }

    @Override
    public CompletableFuture<Void> closeConsumer(ConsumerInfo consumer, List<MessagePosition> kept) {
        synchronized (broker) {
            for (Entry e : broker.subscriptions.getOrDefault(consumer.subscription(), List.of())) {
                if (e.held && !e.acked && e.heldBy == consumer.consumerId()
                        && !kept.contains(new MessagePosition(0, e.offset))) {
                    makeVisible(e, false);
                }
            }
            if (consumer.subscription().type() == SubscriptionType.TOPIC) {
                broker.subscriptions.remove(consumer.subscription());
            }
            return done(null);
        }
    }

    @Override
    public CompletableFuture<Void> deleteSubscription(String clientId, String name) {
        synchronized (broker) {
            boolean removed = broker.subscriptions.keySet().removeIf(
                    ref -> name.equals(ref.name()) && Objects.equals(clientId, ref.clientId()));
            return removed ? done(null) : failed(ClientException.refused(Reason.NOT_FOUND,
                    "no durable subscription named '" + name + "'"));
        }
    }

    @Override
    public CompletableFuture<String> createTemporaryDestination(DestinationKind kind) {
        return done("TMP.in-memory." + temporaries.incrementAndGet());
    }

    @Override
    public CompletableFuture<Void> deleteDestination(String name, DestinationKind kind) {
        synchronized (broker) {
            broker.subscriptions.keySet().removeIf(ref -> ref.destination().equals(name) && ref.destinationKind() == kind);
        }
        return done(null);
    }

    @Override
    public void onBrokerConnectionLost(BiConsumer<String, String> listener) {
        // an in-memory broker is never lost
    }

    @Override
    public CompletableFuture<Void> prepareTransaction(String brokerAddress, long transactionId, String xid,
                                                      String coordinator, List<ConsumedMessages> consumed) {
        ClientException failure = broker.prepareFailure;
        return failure == null ? done(null) : failed(failure);
    }

    @Override
    public CompletableFuture<Void> endTransaction(String brokerAddress, long transactionId, String xid, boolean commit,
                                                  List<ConsumedMessages> consumed) {
        ClientException rollbackFailure = broker.rollbackFailure;
        if (!commit && rollbackFailure != null) {
            return failed(rollbackFailure);
        }
        if (commit) {
            broker.commitAddresses.add(brokerAddress);
            if (!brokerAddress.equals(broker.masterAddress)) {
                return failed(new ClientException(Reason.UNREACHABLE, Outcome.CERTAINLY_NOT_APPLIED,
                        "cannot connect to " + brokerAddress, null));
            }
            broker.commitAttempts.incrementAndGet();
            ClientException failure = broker.commitFailure;
            broker.commitsSeen.release();
            if (failure != null) {
                return failed(failure);
            }
        }
        synchronized (broker) {
            for (Sent sent : broker.halfMessages.getOrDefault(transactionId, List.of())) {
                if (commit) {
                    store(sent);
                }
            }
            broker.halfMessages.remove(transactionId);
            for (ConsumedMessages c : consumed) {
                for (MessagePosition p : c.positions()) {
                    Entry e = entry(c.attachment(), p);
                    if (e != null && commit) {
                        e.acked = true;
                    } else if (e != null) {
                        makeVisible(e, true);
                    }
                }
            }
        }
        return done(null);
    }

    /** As a commit by {@link #endTransaction}, rolled back and refused unless the broker holds {@code halves}. */
    @Override
    public CompletableFuture<Void> commitCounted(String brokerAddress, long transactionId, int halves,
                                                 List<ConsumedMessages> consumed) {
        int held;
        synchronized (broker) {
            held = broker.halfMessages.getOrDefault(transactionId, List.of()).size();
        }
        if (held != halves) {
            endTransaction(brokerAddress, transactionId, "", false, consumed);
            return failed(ClientException.refused(Reason.ROLLED_BACK,
                    "transaction " + transactionId + ": " + halves + " counted, " + held + " held"));
        }
        return endTransaction(brokerAddress, transactionId, "", true, consumed);
    }

    @Override
    public CompletableFuture<List<String>> recoverXids() {
        return done(List.of());
    }

    @Override
    public CompletableFuture<List<String>> masterAddresses() {
        return done(broker.unregistered ? List.of() : List.of(ADDRESS));
    }

    @Override
    public void answerTransactionChecks(LongFunction<TxState> states) {
        // nothing is ever checked back: no half message outlives its commit or rollback here
    }

    @Override
    public CompletableFuture<List<String>> brokersOf(String destination, DestinationKind kind) {
        return done(List.of(ADDRESS));
    }

    /** Holds no large message: every body it stores came whole. */
    @Override
    public CompletableFuture<ByteBuffer> readChunk(String brokerAddress, String destination, long uploadId,
                                                   long physicalOffset, byte[] into) {
        return CompletableFuture.failedFuture(ClientException.refused(Reason.INVALID, "no large messages here"));
    }

    @Override
    public CompletableFuture<BrowsePage> browse(String brokerAddress, String queue, String selector, int queueId,
                                                long fromOffset, int maxMessages) {
        synchronized (broker) {
            List<Delivery> page = new ArrayList<>();
            for (Entry e : broker.subscriptions.getOrDefault(SubscriptionRef.queue(queue), List.of())) {
                if (!e.acked && e.offset >= fromOffset) {
                    page.add(new Delivery(null, new MessagePosition(0, e.offset), e.deliveryCount, e.properties,
                            e.body));
                }
            }
            return done(new BrowsePage(page, 0, 0, true));
        }
    }

    @Override
    public CompletableFuture<Void> claimClientId(String clientId) {
        synchronized (broker) {
            return broker.clientIds.add(clientId) ? done(null)
                    : failed(new ClientException(Reason.CLIENT_ID_IN_USE, Outcome.CERTAINLY_NOT_APPLIED,
                            "client id '" + clientId + "' is in use", null));
        }
    }

    @Override
    public CompletableFuture<Void> releaseClientId(String clientId) {
        synchronized (broker) {
            broker.clientIds.remove(clientId);
        }
        return done(null);
    }

    @Override
    public void close() {
        pulls.shutdownNow();
    }
}
