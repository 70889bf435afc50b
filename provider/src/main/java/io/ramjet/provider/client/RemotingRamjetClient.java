package io.ramjet.provider.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.TxState;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrowseRequest;
import io.ramjet.protocol.command.BrowseResponse;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DeleteDestinationRequest;
import io.ramjet.protocol.command.DeleteSubscriptionRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.command.ReleaseBatchRequest;
import io.ramjet.protocol.command.ParkedSendRequest;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.command.TxCheckRequest;
import io.ramjet.protocol.command.TxAcksRequest;
import io.ramjet.protocol.command.TxCommitCountedRequest;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.command.XaRecoverResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.frame.FrameTooLongException;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.protocol.command.ChunkReadRequest;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.provider.client.ClientException.Reason;
import io.ramjet.provider.client.Routes.Route;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 */
public final class RemotingRamjetClient implements BrokerClient {

    private final RemotingClient remoting;
    private final NameServerClient nameServers;
    private final Duration timeout;
    /** Sent to every broker before anything else; null for an anonymous connection. */
    private final Credentials credentials;
    /** Where each destination lives, and the live masters. */
    private final Routes routes;
    private final ClientIdClaims clientIds;
    private volatile boolean closed;
    private volatile LongFunction<TxState> transactionStates = id -> TxState.UNKNOWN;
    /** A body above this many bytes, or given as a stream, is sent as a large message. */
    private final int largeMessageSize;
    private final LargeUpload largeUpload;
    /** Where large bodies are uploaded: an upload blocks its thread (it reads the application's stream). */
    private final ExecutorService uploads = Executors.newCachedThreadPool(runnable -> {
        Thread t = new Thread(runnable, "ramjet-large-upload");
        t.setDaemon(true);
        return t;
    });

    public RemotingRamjetClient(ConnectionInfo connection) {
        this.timeout = connection.requestTimeout();
        this.largeMessageSize = connection.options().largeMessageSize();
        this.remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1)
                .withRequestTimeout(connection.requestTimeout()).withTls(connection.tls())
                .withMaxFrameLength(connection.options().maxFrameLength()));
        remoting.registerProcessor(CommandCode.TX_CHECK, (channel, request) -> {
            long id = request.header(TxCheckRequest.class).transactionId();
            return request.reply(new TxStateResponse(id, transactionStates.apply(id)));
        }, Runnable::run);
        this.nameServers = new NameServerClient(remoting, connection.nameServers(), connection.requestTimeout());
        this.routes = new Routes(remoting, nameServers, timeout,
                TimeUnit.MILLISECONDS.toNanos(connection.options().discoveryMillis()));
        this.clientIds = new ClientIdClaims(remoting, routes, timeout, () -> closed);
        this.credentials = connection.credentials();
        this.largeUpload = new LargeUpload(remoting, timeout, largeMessageSize, connection.options().compressLargeMessages());
        remoting.setHandshake(this::handshake);
    }

    /**
     * Sends to the broker the producer's choice picks among the writable masters serving the
     * destination (created as {@link Routes} says when none does). The
     * cached route stays when the broker turns out to be gone: {@link #followMaster} or
     * {@link #routeAround} moves it. A transactional send goes without the message's idempotent
     * producer id: a transaction that failed over rolls back, so its sends are never resent.
     */
    @Override
    public CompletableFuture<Void> send(OutgoingMessage m, int queueChoice, long transactionId,
                                        Consumer<String> touching) {
        if (!isLarge(m) && overFrameLimit(m)) {
            return CompletableFuture.failedFuture(tooLarge(m));
        }
        return RemotingFailures.translated(routes.of(m.destination(), m.kind(), null).thenCompose(list -> {
            Route route = list.get(Math.floorMod(queueChoice, list.size()));
            return sendTo(route, Math.floorMod(queueChoice / list.size(), route.queueCount()), m, transactionId,
                    touching);
        }));
    }

    /** Whether {@code m} travels as a large message: its body given as a stream, or over {@code largeMessageSize}. */
    private boolean isLarge(OutgoingMessage m) {
        return m.bodyStream() != null || m.body().length > largeMessageSize;
    }

    @Override
    public CompletableFuture<Void> sendToGroup(OutgoingMessage m, String brokerName, int queueChoice,
                                               Consumer<String> touching) {
        if (!isLarge(m) && overFrameLimit(m)) {
            return CompletableFuture.failedFuture(tooLarge(m));
        }
        return RemotingFailures.translated(nameServers.queryRouteFromAll(m.destination()).thenCompose(data -> {
            Route route = data.writableMasters().stream()
                    .filter(r -> r.kind() == m.kind() && r.broker().brokerName().equals(brokerName))
                    .map(r -> new Route(r.broker().brokerName(), r.broker().address(), r.queueCount()))
                    .findFirst().orElse(null);
            if (route == null) {
                return CompletableFuture.failedFuture(new ClientException(Reason.UNREACHABLE,
                        ClientException.Outcome.CERTAINLY_NOT_APPLIED, "no writable master of broker group "
                        + brokerName + " serves " + m.kind() + " '" + m.destination() + "'", null));
            }
            return sendTo(route, Math.floorMod(queueChoice, route.queueCount()), m, 0, touching);
        }));
    }

    @Override
    public CompletableFuture<Void> parkedSend(OutgoingMessage m, String originGroup, int queueChoice) {
        if (isLarge(m) || m.producerId() == 0) {
            return CompletableFuture.failedFuture(new ClientException(Reason.UNREACHABLE,
                    ClientException.Outcome.CERTAINLY_NOT_APPLIED, "only a small idempotent send is parked", null));
        }
        return RemotingFailures.translated(nameServers.queryRouteFromAll(m.destination()).thenCompose(data -> {
            List<Route> others = data.writableMasters().stream()
                    .filter(r -> r.kind() == m.kind() && !r.broker().brokerName().equals(originGroup))
                    .map(r -> new Route(r.broker().brokerName(), r.broker().address(), r.queueCount()))
                    .toList();
            if (others.isEmpty()) {
                return CompletableFuture.failedFuture(new ClientException(Reason.UNREACHABLE,
                        ClientException.Outcome.CERTAINLY_NOT_APPLIED, m.kind() + " '" + m.destination()
                        + "' lives on no live group but " + originGroup, null));
            }
            Route route = others.get(Math.floorMod(queueChoice, others.size()));
            SendRequest send = new SendRequest(m.destination(), m.kind(),
                    Math.floorMod(queueChoice / others.size(), route.queueCount()), m.persistent(), m.deliveryTime(),
                    m.expiration(), m.properties().length, 0, m.producerId(), m.sequence());
            Frame request = Frame.request(CommandCode.PARKED_SEND, new ParkedSendRequest(originGroup, send),
                    Unpooled.wrappedBuffer(m.properties(), m.body()));
            return remoting.invoke(route.address(), request, timeout)
                    .exceptionallyCompose(failure -> CompletableFuture.<Frame>failedFuture(
                            sendFailure(m, route.address(), failure))).thenAccept(Frames::release);
        }));
    }

    private CompletableFuture<Void> sendTo(Route route, int queueId, OutgoingMessage m, long transactionId,
                                           Consumer<String> touching) {
        if (isLarge(m)) {
            return sendLarge(route, queueId, m, transactionId, touching);
        }
        boolean idempotent = transactionId == 0 && m.producerId() != 0;
        SendRequest header = new SendRequest(m.destination(), m.kind(), queueId, m.persistent(), m.deliveryTime(),
                m.expiration(), m.properties().length, transactionId, idempotent ? m.producerId() : 0,
                idempotent ? m.sequence() : 0);
        ByteBuf body = Unpooled.wrappedBuffer(m.properties(), m.body());
        Frame request = Frame.request(CommandCode.SEND, header, body);
        CompletableFuture<Frame> answer = remoting.invoke(route.address(), request, timeout);
        // the client writes an address's requests in call order, also while its connection
        // (re)opens: a request given to it for this address after this goes behind the message
        touching.accept(route.address());
        return answer.exceptionallyCompose(failure -> CompletableFuture.<Frame>failedFuture(
                sendFailure(m, route.address(), failure))).thenAccept(Frames::release);
    }

    /**
     * As {@link #send}, the body first written to the chosen broker in chunks (on an upload
     * thread, {@link LargeUpload}), then a LARGE_SEND whose body is the chunk table. {@code touching}
     * hears of the broker once the SEND is handed to its connection, or once the upload failed.
     */
    private CompletableFuture<Void> sendLarge(Route route, int queueId, OutgoingMessage m, long transactionId,
                                              Consumer<String> touching) {
        boolean idempotent = transactionId == 0 && m.producerId() != 0;
        return CompletableFuture.supplyAsync(() -> {
                    try {
                        return largeUpload.upload(route.address(), m);
                    } catch (ClientException e) {
                        touching.accept(route.address());
                        throw new CompletionException(e);
                    }
                }, uploads)
                .thenCompose(table -> {
                    SendRequest header = new SendRequest(m.destination(), m.kind(), queueId, m.persistent(),
                            m.deliveryTime(), m.expiration(), m.properties().length, transactionId,
                            idempotent ? m.producerId() : 0, idempotent ? m.sequence() : 0);
                    CompletableFuture<Frame> answer = remoting.invoke(route.address(), Frame.request(
                            CommandCode.LARGE_SEND, header, Unpooled.wrappedBuffer(m.properties(), table)),
                            timeout);
                    // as a whole send: what is given to this address's connection later goes behind the SEND
                    touching.accept(route.address());
                    return answer;
                })
                .exceptionallyCompose(failure -> CompletableFuture.<Frame>failedFuture(
                        sendFailure(m, route.address(), failure))).thenAccept(Frames::release);
    }

    @Override
    public CompletableFuture<byte[]> readChunk(String brokerAddress, String destination, long uploadId,
                                               long physicalOffset) {
        return RemotingFailures.translated(remoting.invoke(brokerAddress, Frame.request(CommandCode.LARGE_CHUNK_READ,
                new ChunkReadRequest(destination, uploadId, physicalOffset)), timeout).thenApply(response -> {
                    try {
                        return response.bodyArray();
                    } finally {
                        Frames.release(response);
                    }
                }));
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

    /**
     * The selector travels with every subscription: the broker compiles it per consumer (a
     * queue's consumers share one subscription, each with its own selector) and filters with it;
     * the client checks it again on every message.
     */
    @Override
    public CompletableFuture<ConsumerInfo> subscribe(ConsumerInfo consumer) {
        String selector = consumer.selector();
        CompletableFuture<String> address = consumer.brokerAddress() != null
                ? CompletableFuture.completedFuture(consumer.brokerAddress())
                : routes.first(consumer.subscription().destination(), consumer.subscription().destinationKind())
                        .thenApply(Route::address);
        ConsumerInfo attachment = consumer.withConsumerId(ConsumerIds.next());
        return RemotingFailures.translated(address.thenCompose(at -> invoke(at, CommandCode.SUBSCRIBE,
                new SubscribeRequest(consumer.subscription(), selector, consumer.noLocal(), attachment.consumerId()),
                timeout).thenApply(done -> attachment.attachedTo(at))));
    }

    @Override
    public CompletableFuture<Void> touch(ConsumerInfo consumer) {
        String address = consumer.brokerAddress();
        if (address == null) {
            return CompletableFuture.completedFuture(null);
        }
        return RemotingFailures.translated(invoke(address, CommandCode.HEARTBEAT, null, timeout));
    }

    @Override
    public CompletableFuture<List<Delivery>> pull(ConsumerInfo consumer, int maxMessages, long holdMillis) {
        String address = consumer.brokerAddress();
        if (address == null) {
            return notSubscribed(consumer);
        }
        PullRequest request = new PullRequest(consumer.consumerId(), consumer.subscription(), maxMessages, holdMillis);
        return RemotingFailures.translated(remoting.invoke(address, Frame.request(CommandCode.PULL, request),
                        timeout.plusMillis(holdMillis))
                .thenApply(response -> {
                    try {
                        return deliveries(consumer, response);
                    } finally {
                        Frames.release(response);
                    }
                }));
    }

    private static List<Delivery> deliveries(ConsumerInfo consumer, Frame response) {
        return records(consumer, response.header(PullResponse.class).messages(), response);
    }

    /** The messages whose records follow one another in the response body. */
    private static List<Delivery> records(ConsumerInfo consumer, List<PulledMessage> pulled, Frame response) {
        List<Delivery> deliveries = new ArrayList<>(pulled.size());
        ByteBuffer records = ByteBuffer.wrap(response.bodyArray());
        int at = 0;
        for (PulledMessage p : pulled) {
            MessageRecordView record = MessageRecordView.wrap(records.slice(at, p.recordSize()));
            at += p.recordSize();
            deliveries.add(new Delivery(consumer, new MessagePosition(p.queueId(), p.queueOffset()),
                    p.deliveryCount(), record.properties(), record.body(),
                    RecordFlags.isSet(record.flags(), RecordFlags.LARGE)));
        }
        return deliveries;
    }

    @Override
    public CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions) {
        return toConsumerBroker(consumer, CommandCode.ACK,
                new AckRequest(consumer.consumerId(), consumer.subscription(), positions));
    }

    @Override
    public CompletableFuture<Void> lazyAck(ConsumerInfo consumer, List<MessagePosition> positions) {
        return toConsumerBroker(consumer, CommandCode.LAZY_ACK,
                new AckRequest(consumer.consumerId(), consumer.subscription(), positions));
    }

    @Override
    public CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions,
                                           boolean countDelivery) {
        return toConsumerBroker(consumer, CommandCode.RELEASE_BATCH, new ReleaseBatchRequest(consumer.consumerId(),
                consumer.subscription(), positions, countDelivery))
                .exceptionally(failure -> {
                    // some not delivered to this attachment any more (visible again already, or
                    // another's); the broker released the others
                    if (RemotingFailures.of(failure).reason() == Reason.NOT_HELD) {
                        return null;
                    }
                    throw new CompletionException(RemotingFailures.of(failure));
                });
    }

    @Override
    public CompletableFuture<Void> closeConsumer(ConsumerInfo consumer, List<MessagePosition> kept) {
        return toConsumerBroker(consumer, CommandCode.CLOSE_CONSUMER,
                new CloseConsumerRequest(consumer.consumerId(), consumer.subscription(), kept));
    }

    private CompletableFuture<Void> toConsumerBroker(ConsumerInfo consumer, short code, Object header) {
        if (consumer.brokerAddress() == null) {
            return notSubscribed(consumer);
        }
        return RemotingFailures.translated(invoke(consumer.brokerAddress(), code, header, timeout));
    }

    private static <T> CompletableFuture<T> notSubscribed(ConsumerInfo consumer) {
        return CompletableFuture.failedFuture(ClientException.refused(Reason.NOT_ATTACHED,
                "consumer " + consumer.consumerId() + " is not subscribed"));
    }

    @Override
    public CompletableFuture<Void> deleteSubscription(String clientId, String name) {
        return RemotingFailures.translated(routes.masters().thenCompose(brokers -> {
            List<CompletableFuture<Boolean>> answers = new ArrayList<>();
            for (BrokerInfo broker : brokers) {
                answers.add(invoke(broker.address(), CommandCode.DELETE_SUBSCRIPTION,
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
        return RemotingFailures.translated(route.thenCompose(r -> invoke(r.address(),
                CommandCode.DELETE_DESTINATION, new DeleteDestinationRequest(name, kind), timeout)));
    }

    /**
     * Whether the message's bytes alone make a frame longer than the brokers accept: such a send
     * fails at once, before anything is written (the encoder refuses the rare one that the
     * frame's header pushes over). Sent anyway, the broker would drop the connection and every
     * consumer and request on it.
     */
    private boolean overFrameLimit(OutgoingMessage m) {
        return FrameDescriptor.frameLength(0, m.properties().length + m.body().length)
                > remoting.config().maxFrameLength();
    }

    private ClientException tooLarge(OutgoingMessage m) {
        int limit = remoting.config().maxFrameLength();
        return ClientException.refused(Reason.INVALID_MESSAGE, "message of " + size(m) + " bytes (properties and body) to " + m.kind()
                + " '" + m.destination() + "' exceeds the frame limit of " + limit + " bytes ("
                + limit / (1024 * 1024) + " MiB): not sent");
    }

    /**
     * A send's failure, told in terms of the message where it was refused for its size: by the
     * encoder (over the frame limit: nothing was written) or by the broker (over its record limit,
     * BAD_REQUEST with the broker's reason): the client chooses a send's destination and queue, so
     * a send the broker finds invalid is an invalid message.
     */
    private ClientException sendFailure(OutgoingMessage m, String address, Throwable failure) {
        ClientException cause = RemotingFailures.of(failure);
        if (cause.getCause() != null && cause.getCause().getCause() instanceof FrameTooLongException) {
            return tooLarge(m);
        }
        if (cause.reason() == Reason.INVALID && cause.getCause() != null) {
            return new ClientException(Reason.INVALID_MESSAGE, cause.outcome(), "broker " + address
                    + " refused the message of " + size(m) + " bytes (properties and body) to " + m.kind() + " '"
                    + m.destination() + "': " + cause.getMessage(), cause.getCause());
        }
        return cause;
    }

    private static long size(OutgoingMessage m) {
        return (long) m.properties().length + m.body().length;
    }

    @Override
    public CompletableFuture<Void> prepareTransaction(String brokerAddress, long transactionId, String xid,
                                                      String coordinator, List<ConsumedMessages> consumed) {
        return RemotingFailures.translated(sendAhead(brokerAddress, transactionId, consumed).thenCompose(rest ->
                invoke(brokerAddress, CommandCode.TX_PREPARE, new TxPrepareRequest(transactionId, xid, coordinator,
                        rest), timeout)));
    }

    @Override
    public CompletableFuture<Void> endTransaction(String brokerAddress, long transactionId, String xid, boolean commit,
                                                  List<ConsumedMessages> consumed) {
        return RemotingFailures.translated(sendAhead(brokerAddress, transactionId, consumed).thenCompose(rest ->
                invoke(brokerAddress, CommandCode.TX_END, new TxEndRequest(transactionId, xid, commit, rest),
                        timeout)));
    }

    @Override
    public CompletableFuture<Void> commitCounted(String brokerAddress, long transactionId, int halves,
                                                 List<ConsumedMessages> consumed) {
        return RemotingFailures.translated(sendAhead(brokerAddress, transactionId, consumed).thenCompose(rest ->
                invoke(brokerAddress, CommandCode.TX_COMMIT_COUNTED, new TxCommitCountedRequest(transactionId,
                        halves, rest), timeout)));
    }

    /**
     * Sends in TX_ACKS frames, held by the broker with the open transaction, what the transaction
     * consumed beyond what its deciding request's frame holds; completes, once the broker holds
     * them, with what that request is to name itself.
     */
    private CompletableFuture<List<AckRequest>> sendAhead(String address, long transactionId,
                                                          List<ConsumedMessages> consumed) {
        ConsumedAhead split = ConsumedAhead.split(acks(consumed), remoting.config().maxFrameLength());
        List<CompletableFuture<Void>> held = new ArrayList<>();
        for (List<AckRequest> batch : split.ahead()) {
            held.add(invoke(address, CommandCode.TX_ACKS, new TxAcksRequest(transactionId, batch), timeout));
        }
        return CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)).thenApply(all -> split.rest());
    }

    private static List<AckRequest> acks(List<ConsumedMessages> consumed) {
        return consumed.stream().map(c -> new AckRequest(c.attachment().consumerId(), c.attachment().subscription(),
                c.positions())).toList();
    }

    @Override
    public CompletableFuture<List<String>> recoverXids() {
        return RemotingFailures.translated(masterAddresses().thenCompose(addresses -> {
            List<CompletableFuture<List<String>>> answers = new ArrayList<>();
            for (String address : addresses) {
                answers.add(remoting.invoke(address, Frame.request(CommandCode.XA_RECOVER, null), timeout)
                        .thenApply(response -> {
                            Frames.release(response);
                            return response.header(XaRecoverResponse.class).xids();
                        }));
            }
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(all -> {
                Set<String> xids = new LinkedHashSet<>();
                answers.forEach(answer -> xids.addAll(answer.join()));
                return List.copyOf(xids);
            });
        }));
    }

    @Override
    public CompletableFuture<List<String>> masterAddresses() {
        return RemotingFailures.translated(routes.masters().thenApply(brokers -> brokers.stream()
                .map(BrokerInfo::address).toList()));
    }

    @Override
    public void answerTransactionChecks(LongFunction<TxState> states) {
        transactionStates = Objects.requireNonNull(states, "states");
    }

    @Override
    public void onBrokerConnectionLost(BiConsumer<String, String> listener) {
        remoting.addConnectionListener(new ConnectionListener() {
            @Override
            public void closed(RemotingConnection connection) {
                String address = connection.remoteAddress();
                if (!closed && !nameServers.addresses().contains(address)) {
                    listener.accept(address, connection.closeReason());
                }
            }
        });
    }

    /**
     * Every master that hosts the destination (writable or not: consumption goes on from a
     * read-only one), with the brokers this client already sends to it or created it on; when
     * none does, it is looked up or created as {@link Routes} says. Asked afresh every time, so that a
     * consumer finds brokers that joined or came back.
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
            return routes.first(destination, kind).thenApply(r -> List.of(r.address()));
        }));
    }

    @Override
    public List<String> knownBrokersOf(String destination, DestinationKind kind) {
        return routes.knownAddresses(destination, kind);
    }

    @Override
    public CompletableFuture<BrowsePage> browse(String brokerAddress, String queue, String selector, int queueId,
                                                long fromOffset, int maxMessages) {
        BrowseRequest request = new BrowseRequest(queue, queueId, fromOffset, maxMessages, selector);
        return RemotingFailures.translated(remoting.invoke(brokerAddress, Frame.request(CommandCode.BROWSE, request),
                        timeout)
                .thenApply(response -> {
                    try {
                        BrowseResponse page = response.header(BrowseResponse.class);
                        return new BrowsePage(records(null, page.messages(), response), page.nextQueueId(),
                                page.nextOffset(), page.end());
                    } finally {
                        Frames.release(response);
                    }
                }));
    }

    /**
     * Claims the client id on every live master, as {@link ClientIdClaims#claim} says; a broker
     * this client connects to later hears of the claim in the connection's handshake.
     */
    @Override
    public CompletableFuture<Void> claimClientId(String clientId) {
        return RemotingFailures.translated(clientIds.claim(clientId));
    }

    /** Gives the client id back on every live master; failures are ignored (closing the transport releases it too). */
    @Override
    public CompletableFuture<Void> releaseClientId(String clientId) {
        return RemotingFailures.translated(clientIds.release(clientId));
    }

    /**
     * What a new broker connection does before this client uses it: authenticate with the
     * connection's credentials (a refusal closes it and fails what was to be sent on it), then
     * claim the held client id, if any. Both are answered before any other request is sent, so the
     * broker, whose processors run on a pool, sees them first. NameServer connections skip it.
     */
    private CompletionStage<Void> handshake(String address, RemotingConnection connection) {
        if (closed || nameServers.addresses().contains(address)) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> authenticated = credentials == null ? CompletableFuture.completedFuture(null)
                : connection.invoke(Frame.request(CommandCode.AUTHENTICATE,
                        new AuthenticateRequest(credentials.user(), credentials.password())), timeout)
                .thenAccept(Frames::release);
        return authenticated.thenCompose(done -> clientIds.claimOn(address, connection));
    }

    /**
     * Connects to every live master, waiting for one to register as {@link Routes#firstMaster()} does,
     * which authenticates each connection; fails with {@code AUTHENTICATION_FAILED} when a broker
     * refuses the credentials.
     */
    @Override
    public CompletableFuture<Void> authenticate() {
        return RemotingFailures.translated(routes.firstMaster().thenCompose(any -> routes.masters())
                .thenCompose(brokers -> CompletableFuture.allOf(brokers.stream()
                        .map(b -> remoting.connect(b.address())).toArray(CompletableFuture[]::new))));
    }

    @Override
    public void close() {
        closed = true;
        uploads.shutdownNow();
        remoting.close();
    }

    private CompletableFuture<Void> invoke(String address, short code, Object header, Duration timeout) {
        return remoting.invoke(address, Frame.request(code, header), timeout).thenAccept(Frames::release);
    }
}
