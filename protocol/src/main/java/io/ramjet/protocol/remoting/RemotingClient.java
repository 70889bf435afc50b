package io.ramjet.protocol.remoting;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.frame.FrameEncoder;
import io.ramjet.protocol.frame.HeaderCodec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Opens and caches one connection per remote address ({@code host:port}) and sends requests
 * over it; the transport of brokers towards NameServers and of the JMS client. Connections
 * heartbeat when they have written nothing for the heartbeat interval and close when nothing
 * has arrived for the idle timeout. A closed connection is dropped from the cache, and the next
 * request to that address opens a new one, after its TLS handshake when the configuration asks for
 * TLS, then its {@link ConnectionHandshake}. The client may also serve requests the remote side
 * sends (a broker's transaction check-back) through registered processors. Thread-safe.
 */
public final class RemotingClient implements AutoCloseable {

    private static final AttributeKey<RemotingConnection> CONNECTION = AttributeKey.valueOf("ramjet.connection");

    private final RemotingClientConfig config;
    private final ProcessorTable processors = new ProcessorTable();
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, OrderedConnection> connections = new ConcurrentHashMap<>();
    /** Every connection opened and not yet closed, whose pending requests {@link #close} fails. */
    private final Set<RemotingConnection> open = ConcurrentHashMap.newKeySet();
    private final HeaderCodec headerCodec = new HeaderCodec();
    private final FrameEncoder encoder;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    /** Null for plain TCP. */
    private final SslContext tls;
    private final Transport transport;
    private volatile ConnectionHandshake handshake = ConnectionHandshake.NONE;
    private volatile boolean closed;

    /**
     * @throws IllegalArgumentException or {@link java.io.UncheckedIOException} when the TLS
     *                                  settings name a file that cannot be read or used
     */
    public RemotingClient(RemotingClientConfig config) {
        this.config = config;
        this.tls = config.tls() == null ? null : config.tls().newContext();
        this.encoder = new FrameEncoder(headerCodec, config.maxFrameLength());
        this.transport = Transport.choose(config.nativeTransport());
        this.group = new MultiThreadIoEventLoopGroup(config.ioThreads(),
                new DefaultThreadFactory("ramjet-client-io", true), transport.ioHandlerFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        RemotingConnection connection = new RemotingConnection(channel);
                        channel.attr(CONNECTION).set(connection);
                        channel.pipeline().addLast(
                                Flushes.consolidated(),
                                new IdleStateHandler(config.idleTimeout().toNanos(),
                                        config.heartbeatInterval().toNanos(), 0, TimeUnit.NANOSECONDS),
                                new FrameDecoder(config.maxFrameLength(), headerCodec),
                                encoder,
                                new RemotingHandler(connection, processors, listeners, RequestGate.OPEN,
                                        config.requestTimeout(), null));
                    }
                });
    }

    public RemotingClientConfig config() {
        return config;
    }

    /** The socket layer of its connections. */
    public Transport transport() {
        return transport;
    }

    /** Serves requests that servers send to this client. */
    public void registerProcessor(short code, RequestProcessor processor, Executor executor) {
        processors.register(code, processor, executor);
    }

    public void registerAsyncProcessor(short code, AsyncRequestProcessor processor, Executor executor) {
        processors.registerAsync(code, processor, executor);
    }

    public void addConnectionListener(ConnectionListener listener) {
        listeners.add(listener);
    }

    /** What each connection opened from now on goes through before it is used; set it before the first request. */
    public void setHandshake(ConnectionHandshake handshake) {
        this.handshake = Objects.requireNonNull(handshake, "handshake");
    }

    /** The open connection to the address, opening it (and completing its handshake) when there is none. */
    public CompletableFuture<RemotingConnection> connect(String address) {
        if (closed) {
            return CompletableFuture.failedFuture(closedFailure());
        }
        return connection(address).opened();
    }

    /** Writes on the connection to the address, opening it when there is none, in call order. */
    private <T> CompletableFuture<T> write(String address, Function<RemotingConnection, CompletableFuture<T>> write) {
        if (closed) {
            return CompletableFuture.failedFuture(closedFailure());
        }
        return connection(address).write(write);
    }

    private static RemotingConnectionException closedFailure() {
        return new RemotingConnectionException("client closed");
    }

    private OrderedConnection connection(String address) {
        while (true) {
            OrderedConnection existing = connections.get(address);
            if (existing != null && !isStale(existing.opened())) {
                return existing;
            }
            if (existing != null) {
                connections.remove(address, existing);
                continue;
            }
            OrderedConnection opening = new OrderedConnection();
            if (connections.putIfAbsent(address, opening) == null) {
                open(address, opening);
                return opening;
            }
        }
    }

    private static boolean isStale(CompletableFuture<RemotingConnection> connection) {
        return connection.isDone() && (connection.isCompletedExceptionally() || !connection.join().isActive());
    }

    private void open(String address, OrderedConnection opening) {
        if (closed) {
            // a request that passed the closed check as the client closed: its event loops may be gone
            connections.remove(address, opening);
            opening.opened().completeExceptionally(closedFailure());
            return;
        }
        int colon = address.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            connections.remove(address, opening);
            opening.opened().completeExceptionally(
                    new RemotingConnectionException("not a host:port address: " + address));
            return;
        }
        String host = address.substring(0, Math.max(colon, 0));
        bootstrap.connect(host, port).addListener(connected -> {
            Channel channel = ((ChannelFuture) connected).channel();
            if (!connected.isSuccess()) {
                connections.remove(address, opening);
                opening.opened().completeExceptionally(new RemotingConnectionException("cannot connect to " + address,
                        connected.cause()));
                return;
            }
            RemotingConnection connection = channel.attr(CONNECTION).get();
            open.add(connection);
            channel.closeFuture().addListener(f -> {
                connections.remove(address, opening);
                open.remove(connection);
            });
            if (tls == null) {
                shakeHands(connection, address, opening);
                return;
            }
            SslHandler ssl = tls.newHandler(channel.alloc(), host, port);
            ssl.setHandshakeTimeoutMillis(config.connectTimeout().toMillis());
            channel.pipeline().addFirst(ssl);
            ssl.handshakeFuture().addListener(handshake -> {
                if (handshake.isSuccess()) {
                    shakeHands(connection, address, opening);
                } else {
                    fail(connection, address, opening, new RemotingConnectionException("TLS handshake with " + address
                            + " failed (is it a TLS port, and is its certificate trusted and for that host?): "
                            + TlsFailures.describe(handshake.cause()), handshake.cause()));
                }
            });
        });
    }

    private void shakeHands(RemotingConnection connection, String address, OrderedConnection opening) {
        CompletionStage<Void> done;
        try {
            done = handshake.perform(address, connection);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        done.whenComplete((ok, failure) -> {
            if (failure == null) {
                if (!opening.opened().complete(connection) || closed) {
                    connection.close();
                }
                return;
            }
            fail(connection, address, opening, unwrap(failure));
        });
    }

    private void fail(RemotingConnection connection, String address, OrderedConnection opening,
                      RemotingException cause) {
        connections.remove(address, opening);
        connection.closing("handshake failed: " + cause.getMessage());
        connection.channel().close();
        opening.opened().completeExceptionally(cause);
    }

    /** Sends a request with the configured request timeout. */
    public CompletableFuture<Frame> invoke(String address, Frame request) {
        return invoke(address, request, config.requestTimeout());
    }

    /**
     * Sends a request; failures as in {@link RemotingConnection#invoke}. The requests and one-way
     * frames to one address are written in the order they were given, also while the connection
     * to it opens. The request's body is released once written, or when it cannot be (the
     * client is closed, the connection could not be opened): a pooled body is never left behind.
     */
    public CompletableFuture<Frame> invoke(String address, Frame request, Duration timeout) {
        AtomicBoolean handed = new AtomicBoolean();
        return write(address, connection -> {
            handed.set(true);
            return connection.invoke(request, timeout);
        }).whenComplete((response, failure) -> {
            if (failure != null && !handed.get()) {
                request.body().release();
            }
        });
    }

    /** Sends a request and waits for its response. */
    public Frame invokeSync(String address, Frame request, Duration timeout)
            throws RemotingException, InterruptedException {
        CompletableFuture<Frame> response = invoke(address, request, timeout);
        try {
            return response.get(timeout.plus(config.connectTimeout()).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        } catch (TimeoutException e) {
            throw new RemotingTimeoutException("no response from " + address + " within " + timeout.toMillis() + " ms");
        }
    }

    /** Sends a frame that expects no response, in order with {@link #invoke}; completes once written. */
    public CompletableFuture<Void> sendOneWay(String address, Frame frame) {
        return write(address, connection -> connection.sendOneWay(frame));
    }

    /** Closes the connection to the address, if any; its pending requests fail. */
    public void closeConnection(String address) {
        OrderedConnection existing = connections.remove(address);
        if (existing != null) {
            existing.opened().thenAccept(RemotingConnection::close);
        }
    }

    /**
     * Closes every connection, failing their pending requests, and stops the I/O threads. What
     * those threads did not get to before they stopped fails afterwards: a connection still
     * opening (its connect's or handshake's callback may never run) and requests of a connection
     * whose close they did not process (their timeouts ran on those threads too), so that no
     * request's future is left waiting for ever.
     */
    @Override
    public void close() {
        closed = true;
        List<OrderedConnection> begun = new ArrayList<>(connections.values());
        for (String address : List.copyOf(connections.keySet())) {
            closeConnection(address);
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        begun.addAll(connections.values());
        RemotingConnectionException failure = closedFailure();
        begun.forEach(connection -> connection.opened().completeExceptionally(failure));
        open.forEach(RemotingConnection::failPending);
    }

    /** The remoting failure behind a future's failure. */
    public static RemotingException unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RemotingException remoting) {
            return remoting;
        }
        return new RemotingException(String.valueOf(cause), cause);
    }
}
