package io.ramjet.provider.client;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.TxState;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DeleteDestinationRequest;
import io.ramjet.protocol.command.DeleteSubscriptionRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.provider.client.ClientException.Reason;
import io.ramjet.provider.client.Routes.Route;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * {@link BrokerClient} over Ramjet remoting: routes from the NameServers ({@link Routes}), one
 * transport connection per broker, which authenticates and claims the client id
 * ({@link ClientIdClaims}) before anything else is sent on it. Remoting failures become
 * {@link ClientException}s in {@link RemotingFailures}, nowhere else.
 *
 * <p>Several brokers: a destination may live on several masters. A producer's queue choice picks
 * one of them and sticks to it; {@link #routeAround} moves the producers off a failed one. A
 * consumer asks {@link #brokersOf} and subscribes on each broker that hosts its destination
 * ({@link ConsumerInfo#brokerAddress()} names the one an attachment belongs to).
 *
 * <p>This class keeps the routes and the destination requests; it hands the rest to one part each:
 * {@link BrokerConnections} (each connection's handshake, losses, close), {@link MessageSends},
 * {@link ConsumerRequests} and {@link TransactionRequests}.
 */
public final class RemotingRamjetClient implements BrokerClient {

    private final RemotingClient remoting;
    private final NameServerClient nameServers;
    private final Duration timeout;
    /** Where each destination lives, and the live masters. */
    private final Routes routes;
    private final TransactionRequests transactions;
    private final BrokerConnections connections;
    private final MessageSends sends;
    private final ConsumerRequests consumers;

    public RemotingRamjetClient(ConnectionInfo connection) {
        this.timeout = connection.requestTimeout();
        this.remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1)
                .withRequestTimeout(connection.requestTimeout()).withTls(connection.tls())
                .withMaxFrameLength(connection.options().maxFrameLength()));
        this.transactions = new TransactionRequests(remoting, timeout);
        this.nameServers = new NameServerClient(remoting, connection.nameServers(), connection.requestTimeout());
        this.routes = new Routes(remoting, nameServers, timeout,
                Duration.ofMillis(connection.options().failoverTimeout()),
                TimeUnit.MILLISECONDS.toNanos(connection.options().discoveryMillis()));
        this.connections = new BrokerConnections(remoting, nameServers, routes, timeout, connection.credentials());
        this.sends = new MessageSends(remoting, nameServers, routes, timeout, connection.options());
        this.consumers = new ConsumerRequests(remoting, routes, timeout);
    }

    @Override
    public CompletableFuture<Void> send(OutgoingMessage m, int queueChoice, long transactionId,
                                        Consumer<String> touching) {
        return sends.send(m, queueChoice, transactionId, touching);
    }

    @Override
    public CompletableFuture<Void> sendToGroup(OutgoingMessage m, String brokerName, int queueChoice,
                                               Consumer<String> touching) {
        return sends.sendToGroup(m, brokerName, queueChoice, touching);
    }

    @Override
    public CompletableFuture<Void> parkedSend(OutgoingMessage m, String originGroup, int queueChoice) {
        return sends.parkedSend(m, originGroup, queueChoice);
    }

    @Override
    public CompletableFuture<ByteBuffer> readChunk(String brokerAddress, String destination, long uploadId,
                                                   long physicalOffset, byte[] into) {
        return sends.readChunk(brokerAddress, destination, uploadId, physicalOffset, into);
    }

    /** Asks the NameServers for the live brokers, which they answer whether or not any registered. */
    @Override
    public CompletableFuture<Void> connect() {
        return RemotingFailures.translated(nameServers.listBrokers().thenAccept(brokers -> { }));
    }

    @Override
    public void routeAround(String destination, DestinationKind kind, String failedBroker) {
        routes.of(destination, kind, failedBroker);
    }

    @Override
    public CompletableFuture<String> groupOf(String destination, DestinationKind kind, int queueChoice) {
        // completes once a connection attempt there ended (the remoting client keeps the order of
        // sends that wait for a connection); a failed attempt is the send's to meet, so the
        // group's failover starts
        return RemotingFailures.translated(routes.of(destination, kind, null).thenCompose(list -> {
            Route route = list.get(Math.floorMod(queueChoice, list.size()));
            return remoting.connect(route.address()).handle((connected, failure) -> route.brokerName());
        }));
    }

    /** Points every cached route of the group at the master the NameServers name now, if they name one. */
    @Override
    public CompletableFuture<String> followMaster(String brokerName) {
        return RemotingFailures.translated(routes.masters().thenApply(masters -> {
            String address = masters.stream().filter(b -> b.brokerName().equals(brokerName)).map(BrokerInfo::address)
                    .findFirst().orElse(null);
            if (address != null) {
                routes.followMaster(brokerName, address);
            }
            return address;
        }));
    }

    @Override
    public CompletableFuture<String> groupAt(String address) {
        String known = routes.groupAt(address);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        return RemotingFailures.translated(routes.masters().thenApply(masters -> routes.groupAt(address)));
    }

    @Override
    public CompletableFuture<Void> deleteSubscription(String clientId, String name) {
        return RemotingFailures.translated(routes.masters().thenCompose(brokers -> {
            List<CompletableFuture<Boolean>> answers = new ArrayList<>();
            for (BrokerInfo broker : brokers) {
                answers.add(Frames.invoke(remoting, broker.address(), CommandCode.DELETE_SUBSCRIPTION,
                        new DeleteSubscriptionRequest(clientId, name), timeout)
                        .handle((done, failure) -> {
                            if (failure == null) {
                                return true;
                            }
                            if (RemotingFailures.of(failure).reason() == Reason.NOT_FOUND) {
                                return false;
                            }
                            throw new CompletionException(RemotingFailures.of(failure));
                        }));
            }
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenCompose(all -> {
                if (answers.stream().anyMatch(CompletableFuture::join)) {
                    return CompletableFuture.<Void>completedFuture(null);
                }
                return CompletableFuture.<Void>failedFuture(ClientException.refused(Reason.NOT_FOUND,
                        "no durable subscription named '" + name + "'"));
            });
        }));
    }

    @Override
    public CompletableFuture<String> createTemporaryDestination(DestinationKind kind) {
        return RemotingFailures.translated(routes.firstMaster().thenCompose(broker -> remoting.invoke(broker.address(),
                        Frame.request(CommandCode.CREATE_DESTINATION, CreateDestinationRequest.temporary(kind)),
                        timeout)
                .thenApply(response -> {
                    Frames.release(response);
                    DestinationInfo info = response.header(DestinationInfo.class);
                    routes.created(info.name(), kind, new Route(broker.brokerName(), broker.address(),
                            info.queueCount()));
                    return info.name();
                })));
    }

    @Override
    public CompletableFuture<Void> deleteDestination(String name, DestinationKind kind) {
        CompletableFuture<List<Route>> cached = routes.forget(name, kind);
        CompletableFuture<Route> route = cached != null ? cached.thenApply(list -> list.get(0))
                : routes.first(name, kind);
        return RemotingFailures.translated(route.thenCompose(r -> Frames.invoke(remoting, r.address(),
                CommandCode.DELETE_DESTINATION, new DeleteDestinationRequest(name, kind), timeout)));
    }

    @Override
    public CompletableFuture<List<String>> masterAddresses() {
        return RemotingFailures.translated(routes.masters().thenApply(brokers -> brokers.stream()
                .map(BrokerInfo::address).toList()));
    }

    /**
     * Every master that hosts the destination (writable or not: consumption goes on from a
     * read-only one), with the brokers this client already sends to it or created it on; when
     * none does, it is looked up or created as {@link Routes} says, and every master it lives on
     * then is named, not only the first: a consumer that creates a topic by subscribing must be
     * attached on every group before a producer sends there, or a durable subscription would
     * begin on the others only when its discovery finds them, missing what was sent there
     * meanwhile. Asked afresh every time, so that a consumer finds brokers that joined or came back.
     */
    @Override
    public CompletableFuture<List<String>> brokersOf(String destination, DestinationKind kind) {
        List<String> known = knownBrokersOf(destination, kind);
        return RemotingFailures.translated(nameServers.queryRouteFromAll(destination).thenCompose(data -> {
            Set<String> addresses = new TreeSet<>(known);
            data.brokers().stream()
                    .filter(r -> r.kind() == kind && r.broker().isMaster())
                    .forEach(r -> {
                        addresses.add(r.broker().address());
                        routes.seen(r.broker());
                    });
            if (!addresses.isEmpty()) {
                return CompletableFuture.completedFuture(List.copyOf(addresses));
            }
            return routes.of(destination, kind, null).thenApply(created -> created.stream().map(Routes.Route::address)
                    .toList());
        }));
    }

    @Override
    public List<String> knownBrokersOf(String destination, DestinationKind kind) {
        return routes.knownAddresses(destination, kind);
    }

    @Override
    public CompletableFuture<ConsumerInfo> subscribe(ConsumerInfo consumer) {
        return consumers.subscribe(consumer);
    }

    @Override
    public CompletableFuture<Void> touch(ConsumerInfo consumer) {
        return consumers.touch(consumer);
    }

    @Override
    public CompletableFuture<List<Delivery>> pull(ConsumerInfo consumer, int maxMessages, long holdMillis) {
        return consumers.pull(consumer, maxMessages, holdMillis);
    }

    @Override
    public CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions) {
        return consumers.ack(consumer, positions);
    }

    @Override
    public CompletableFuture<Void> lazyAck(ConsumerInfo consumer, List<MessagePosition> positions) {
        return consumers.lazyAck(consumer, positions);
    }

    @Override
    public CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions,
                                           boolean countDelivery) {
        return consumers.release(consumer, positions, countDelivery);
    }

    @Override
    public CompletableFuture<Void> closeConsumer(ConsumerInfo consumer, List<MessagePosition> kept) {
        return consumers.closeConsumer(consumer, kept);
    }

    @Override
    public CompletableFuture<BrowsePage> browse(String brokerAddress, String queue, String selector, int queueId,
                                                long fromOffset, int maxMessages) {
        return consumers.browse(brokerAddress, queue, selector, queueId, fromOffset, maxMessages);
    }

    @Override
    public CompletableFuture<Void> prepareTransaction(String brokerAddress, long transactionId, String xid,
                                                      String coordinator, List<ConsumedMessages> consumed) {
        return transactions.prepareTransaction(brokerAddress, transactionId, xid, coordinator, consumed);
    }

    @Override
    public CompletableFuture<Void> endTransaction(String brokerAddress, long transactionId, String xid, boolean commit,
                                                  List<ConsumedMessages> consumed) {
        return transactions.endTransaction(brokerAddress, transactionId, xid, commit, consumed);
    }

    @Override
    public CompletableFuture<Void> commitCounted(String brokerAddress, long transactionId, int halves,
                                                 List<ConsumedMessages> consumed) {
        return transactions.commitCounted(brokerAddress, transactionId, halves, consumed);
    }

    @Override
    public CompletableFuture<List<String>> recoverXids() {
        return transactions.recoverXids(masterAddresses());
    }

    @Override
    public void answerTransactionChecks(LongFunction<TxState> states) {
        transactions.answerTransactionChecks(states);
    }

    @Override
    public CompletableFuture<Void> claimClientId(String clientId) {
        return connections.claimClientId(clientId);
    }

    @Override
    public CompletableFuture<Void> releaseClientId(String clientId) {
        return connections.releaseClientId(clientId);
    }

    @Override
    public CompletableFuture<Void> authenticate() {
        return connections.authenticate();
    }

    @Override
    public void onBrokerConnectionLost(BiConsumer<String, String> listener) {
        connections.onBrokerConnectionLost(listener);
    }

    @Override
    public void close() {
        sends.close();
        connections.close();
    }
}
