package io.ramjet.provider.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DeleteDestinationRequest;
import io.ramjet.protocol.command.DeleteSubscriptionRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.DestinationKind;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.MessagePosition;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.command.ReleaseRequest;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.record.MessageRecordView;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RemotingConnectionException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@link RamjetClient} over Ramjet remoting: routes from the NameServers (cached; dropped on a
 * transport failure), one transport connection per broker. A destination no NameServer knows
 * yet is created on the first live master, which then announces it.
 *
 * <p>First cut: a consumer reads from the first writable master of its destination's route;
 * destinations spread over several brokers are consumed only on that one.
 */
public final class RemotingRamjetClient implements RamjetClient {

    /** Where a destination lives for this client: a broker address and its queue count there. */
    private record Route(String address, int queueCount) {
    }

    private static final long NO_BROKER_RETRY_MILLIS = 50;

    private final RemotingClient remoting;
    private final NameServerClient nameServers;
    private final Duration timeout;
    private final Map<String, CompletableFuture<Route>> routes = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public RemotingRamjetClient(ConnectionInfo connection) {
        this.timeout = connection.requestTimeout();
        this.remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1)
                .withRequestTimeout(connection.requestTimeout()));
        this.nameServers = new NameServerClient(remoting, connection.nameServers(), connection.requestTimeout());
    }

    @Override
    public CompletableFuture<Void> send(OutgoingMessage m, int queueChoice) {
        return route(m.destination(), m.kind()).thenCompose(route -> {
            int queueId = Math.floorMod(queueChoice, route.queueCount());
            SendRequest header = new SendRequest(m.destination(), m.kind(), queueId, m.persistent(), m.deliveryTime(),
                    m.expiration(), m.tagSignature(), m.properties().length);
            ByteBuf body = Unpooled.wrappedBuffer(m.properties(), m.body());
            return remoting.invoke(route.address(), Frame.request(CommandCode.SEND, header, body), timeout)
                    .whenComplete((response, failure) -> {
                        if (failure != null && unwrap(failure) instanceof RemotingConnectionException) {
                            routes.remove(key(m.destination(), m.kind()));
                        }
                    });
        }).thenAccept(Frames::release);
    }

    /**
     * A queue's consumers share one subscription but each has its own selector, and the broker
     * refuses a second consumer whose subscription terms differ; so a queue consumer's selector
     * travels only as its tag masks (per consumer on the broker) and is checked in the client.
     */
    @Override
    public CompletableFuture<ConsumerInfo> subscribe(ConsumerInfo consumer) {
        String selector = consumer.isQueue() ? null : consumer.selector();
        return route(consumer.subscription().destination(), consumer.subscription().destinationKind())
                .thenCompose(route -> invoke(route.address(), CommandCode.SUBSCRIBE, new SubscribeRequest(
                        consumer.subscription(), selector, consumer.noLocal(), consumer.consumerId(),
                        consumer.tagMasks()), timeout)
                        .thenApply(done -> consumer.attachedTo(route.address())));
    }

    @Override
    public CompletableFuture<List<Delivery>> pull(ConsumerInfo consumer, int maxMessages, long holdMillis) {
        String address = consumer.brokerAddress();
        if (address == null) {
            return notSubscribed(consumer);
        }
        PullRequest request = new PullRequest(consumer.consumerId(), consumer.subscription(), maxMessages, holdMillis);
        return remoting.invoke(address, Frame.request(CommandCode.PULL, request),
                        timeout.plusMillis(holdMillis))
                .thenApply(response -> {
                    try {
                        return deliveries(consumer, response);
                    } finally {
                        Frames.release(response);
                    }
                });
    }

    private static List<Delivery> deliveries(ConsumerInfo consumer, Frame response) {
        List<PulledMessage> pulled = response.header(PullResponse.class).messages();
        List<Delivery> deliveries = new ArrayList<>(pulled.size());
        ByteBuffer records = ByteBuffer.wrap(response.bodyBytes());
        int at = 0;
        for (PulledMessage p : pulled) {
            MessageRecordView record = MessageRecordView.wrap(records.slice(at, p.recordSize()));
            at += p.recordSize();
            deliveries.add(new Delivery(consumer, new MessagePosition(p.queueId(), p.queueOffset()),
                    p.deliveryCount(), bytes(record.properties()), bytes(record.body())));
        }
        return deliveries;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    @Override
    public CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions) {
        return toConsumerBroker(consumer, CommandCode.ACK, new AckRequest(consumer.subscription(), positions));
    }

    @Override
    public CompletableFuture<Void> release(ConsumerInfo consumer, MessagePosition position, boolean countDelivery,
                                           boolean excludeConsumer) {
        return toConsumerBroker(consumer, CommandCode.RELEASE, new ReleaseRequest(consumer.consumerId(),
                consumer.subscription(), position, countDelivery, excludeConsumer));
    }

    @Override
    public CompletableFuture<Void> closeConsumer(ConsumerInfo consumer) {
        return toConsumerBroker(consumer, CommandCode.CLOSE_CONSUMER,
                new CloseConsumerRequest(consumer.consumerId(), consumer.subscription()));
    }

    private CompletableFuture<Void> toConsumerBroker(ConsumerInfo consumer, short code, Object header) {
        if (consumer.brokerAddress() == null) {
            return notSubscribed(consumer);
        }
        return invoke(consumer.brokerAddress(), code, header, timeout);
    }

    private static <T> CompletableFuture<T> notSubscribed(ConsumerInfo consumer) {
        return CompletableFuture.failedFuture(new RemotingCommandException(ErrorStatus.UNKNOWN_CONSUMER,
                "consumer " + consumer.consumerId() + " is not subscribed"));
    }

    @Override
    public CompletableFuture<Void> deleteSubscription(String clientId, String name) {
        return masters().thenCompose(brokers -> {
            List<CompletableFuture<Boolean>> answers = new ArrayList<>();
            for (BrokerInfo broker : brokers) {
                answers.add(invoke(broker.address(), CommandCode.DELETE_SUBSCRIPTION,
                        new DeleteSubscriptionRequest(clientId, name), timeout)
                        .handle((done, failure) -> {
                            if (failure == null) {
                                return true;
                            }
                            if (unwrap(failure) instanceof RemotingCommandException c
                                    && c.status() == ErrorStatus.NOT_FOUND) {
                                return false;
                            }
                            throw new CompletionException(unwrap(failure));
                        }));
            }
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenCompose(all -> {
                if (answers.stream().anyMatch(CompletableFuture::join)) {
                    return CompletableFuture.<Void>completedFuture(null);
                }
                return CompletableFuture.<Void>failedFuture(new RemotingCommandException(ErrorStatus.NOT_FOUND,
                        "no durable subscription named '" + name + "'"));
            });
        });
    }

    @Override
    public CompletableFuture<Void> createTemporaryDestination(String name, DestinationKind kind) {
        return firstMaster().thenCompose(broker -> remoting.invoke(broker.address(),
                        Frame.request(CommandCode.CREATE_DESTINATION, new CreateDestinationRequest(name, kind, 1, true)),
                        timeout)
                .thenAccept(response -> {
                    Frames.release(response);
                    DestinationInfo info = response.header(DestinationInfo.class);
                    routes.put(key(name, kind), CompletableFuture.completedFuture(
                            new Route(broker.address(), info.queueCount())));
                }));
    }

    @Override
    public CompletableFuture<Void> deleteDestination(String name, DestinationKind kind) {
        CompletableFuture<Route> cached = routes.remove(key(name, kind));
        CompletableFuture<Route> route = cached != null ? cached : route(name, kind);
        return route.thenCompose(r -> invoke(r.address(), CommandCode.DELETE_DESTINATION,
                new DeleteDestinationRequest(name, kind), timeout));
    }

    @Override
    public void onBrokerConnectionLost(Consumer<String> listener) {
        remoting.addConnectionListener(new ConnectionListener() {
            @Override
            public void closed(RemotingConnection connection) {
                String address = connection.remoteAddress();
                if (!closed && !nameServers.addresses().contains(address)) {
                    listener.accept(address);
                }
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        remoting.close();
    }

    private CompletableFuture<Route> route(String destination, DestinationKind kind) {
        String key = key(destination, kind);
        CompletableFuture<Route> route = routes.computeIfAbsent(key, k -> lookUp(destination, kind));
        route.whenComplete((r, failure) -> {
            if (failure != null) {
                routes.remove(key, route);
            }
        });
        return route;
    }

    private CompletableFuture<Route> lookUp(String destination, DestinationKind kind) {
        return nameServers.queryRoute(destination).thenCompose(data -> {
            for (BrokerRoute r : data.writableMasters()) {
                if (r.kind() == kind) {
                    return CompletableFuture.completedFuture(new Route(r.broker().address(), r.queueCount()));
                }
            }
            return firstMaster().thenCompose(broker -> remoting.invoke(broker.address(),
                            Frame.request(CommandCode.CREATE_DESTINATION, new CreateDestinationRequest(destination, kind, 0)),
                            timeout)
                    .thenApply(response -> {
                        Frames.release(response);
                        return new Route(broker.address(), response.header(DestinationInfo.class).queueCount());
                    }));
        });
    }

    private CompletableFuture<List<BrokerInfo>> masters() {
        return nameServers.listBrokers().thenApply(brokers -> brokers.stream().filter(BrokerInfo::isMaster).toList());
    }

    /**
     * The first live master. A broker registers asynchronously after it starts, so an empty
     * list is asked again every {@value #NO_BROKER_RETRY_MILLIS} ms until the request timeout.
     */
    private CompletableFuture<BrokerInfo> firstMaster() {
        return firstMaster(System.nanoTime() + timeout.toNanos());
    }

    private CompletableFuture<BrokerInfo> firstMaster(long deadline) {
        return masters().thenCompose(masters -> {
            if (!masters.isEmpty()) {
                return CompletableFuture.completedFuture(masters.get(0));
            }
            if (System.nanoTime() - deadline > 0) {
                return CompletableFuture.failedFuture(new RemotingConnectionException("no live broker is registered"));
            }
            return CompletableFuture.supplyAsync(() -> deadline,
                            CompletableFuture.delayedExecutor(NO_BROKER_RETRY_MILLIS, TimeUnit.MILLISECONDS))
                    .thenCompose(this::firstMaster);
        });
    }

    private CompletableFuture<Void> invoke(String address, short code, Object header, Duration timeout) {
        return remoting.invoke(address, Frame.request(code, header), timeout).thenAccept(Frames::release);
    }

    private static String key(String destination, DestinationKind kind) {
        return kind + ":" + destination;
    }

    /** The remoting failure inside a future's failure. */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** Response bodies belong to whoever receives them. */
    private static final class Frames {
        static void release(Frame frame) {
            ByteBuf body = frame.body();
            if (body != null && body.refCnt() > 0) {
                body.release();
            }
        }
    }
}
