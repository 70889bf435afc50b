package io.ramjet.server.remoting;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.frame.FrameEncoder;
import io.ramjet.protocol.frame.FrameMemory;
import io.ramjet.protocol.frame.RefusalLog;
import io.ramjet.protocol.frame.HeaderCodec;
import io.ramjet.protocol.remoting.AcceptedChannels;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.ProcessorTable;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.protocol.remoting.RequestGate;
import io.ramjet.protocol.remoting.RequestExecutor;
import io.ramjet.protocol.remoting.RequestProcessor;
import io.ramjet.protocol.remoting.Transport;
import io.ramjet.server.config.ConnectionLimits;
import io.ramjet.server.config.RemotingServerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Accepts connections and serves the command codes registered with it; the transport of the
 * NameServer and the broker. Register processors, listeners and the request gate before
 * {@link #start()}.
 * A connection that breaks the protocol, sends an unknown code or stays silent past the idle
 * timeout is closed, with the reason logged; other connections are unaffected. Connections past
 * the {@link ConnectionLimits} are closed as they open, a frame over the limit before login or
 * without room in the frame memory closes its connection; each refusal is logged once per address.
 */
public final class RemotingServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RemotingServer.class);

    private final RemotingServerConfig config;
    private final ProcessorTable processors = new ProcessorTable();
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<Channel, RemotingConnection> connections = new ConcurrentHashMap<>();
    private final HeaderCodec headerCodec = new HeaderCodec();
    private final FrameEncoder encoder = new FrameEncoder(headerCodec);
    private final RefusalLog refusals;
    private final FrameMemory frameMemory;
    private final ConnectionLimiter limiter;
    private volatile RequestGate gate = RequestGate.OPEN;

    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private Channel serverChannel;
    private volatile Transport transport;

    public RemotingServer(RemotingServerConfig config) {
        this.config = config;
        this.refusals = new RefusalLog(config.role());
        this.frameMemory = new FrameMemory(config.limits().frameMemory(), config.limits().frameMemoryPerOwner());
        this.limiter = new ConnectionLimiter(config.limits(), refusals);
    }

    public void registerProcessor(short code, RequestProcessor processor, Executor executor) {
        processors.register(code, processor, executor);
    }

    public void registerAsyncProcessor(short code, AsyncRequestProcessor processor, Executor executor) {
        processors.registerAsync(code, processor, executor);
    }

    /** As {@link #registerAsyncProcessor}, {@code executor} choosing per request: on the I/O thread or its own. */
    public void registerAsyncProcessor(short code, AsyncRequestProcessor processor, RequestExecutor executor) {
        processors.registerWithConnection(code, processor, executor);
    }

    /** As {@link #registerAsyncProcessor}, one connection's requests of {@code code} started in arrival order. */
    public void registerInOrderProcessor(short code, AsyncRequestProcessor processor, Executor executor) {
        processors.registerInOrder(code, processor, executor);
    }

    public void addConnectionListener(ConnectionListener listener) {
        listeners.add(listener);
    }

    /** What every request must pass before its processor sees it; {@link RequestGate#OPEN} unless set. */
    public void setRequestGate(RequestGate gate) {
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /** Binds the configured address. */
    public synchronized void start() throws RemotingException {
        if (serverChannel != null) {
            throw new IllegalStateException("already started");
        }
        SslContext tls;
        try {
            tls = config.tls() == null ? null : config.tls().newContext();
        } catch (RuntimeException e) { // a key or trust file missing or unusable
            throw new RemotingException(config.role() + " cannot start TLS: " + e.getMessage(), e);
        }
        Transport transport = Transport.choose(config.nativeTransport());
        bossGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("ramjet-accept", true),
                transport.ioHandlerFactory());
        workerGroup = new MultiThreadIoEventLoopGroup(config.ioThreads(), new DefaultThreadFactory("ramjet-server-io", true),
                transport.ioHandlerFactory());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(transport.serverSocketChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(limiter);
                        ConnectionLimits limits = config.limits();
                        FrameDecoder decoder = new FrameDecoder(config.maxFrameLength(), limits.loginRequired()
                                ? limits.frameLengthBeforeLogin() : config.maxFrameLength(), frameMemory, refusals,
                                headerCodec);
                        RemotingConnection connection = AcceptedChannels.install(channel, tls, config.idleTimeout(),
                                decoder, encoder, processors, listeners, gate, refusals);
                        connections.put(channel, connection);
                        channel.closeFuture().addListener(f -> connections.remove(channel));
                    }
                });
        try {
            serverChannel = bootstrap.bind(config.host(), config.port()).syncUninterruptibly().channel();
        } catch (Exception e) { // Netty rethrows the checked BindException undeclared
            shutdownGroups();
            throw new RemotingException(config.role() + " cannot listen on " + config.host() + ":" + config.port()
                    + ": " + rootMessage(e), e);
        }
        this.transport = transport;
        LOG.info("remoting server listening on {} ({}){}", address(), transport, tls == null ? "" : " with TLS (client certificates "
                + config.tls().clientAuth().name().toLowerCase(Locale.ROOT) + ")");
    }

    /** The bound port, the chosen one when configured with port 0. */
    public int port() {
        if (serverChannel == null) {
            throw new IllegalStateException("not started");
        }
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** The socket layer it listens on; null before {@link #start}. */
    public Transport transport() {
        return transport;
    }

    /** The announced address as {@code host:port}, what clients connect to. */
    public String address() {
        return config.announcedHost() + ":" + config.announcedPort(port());
    }

    /** "Address already in use", not the Netty wrappers around it: the one line an operator needs. */
    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return Transport.systemMessage(root);
    }

    /** Currently open connections. */
    public Collection<RemotingConnection> connections() {
        return List.copyOf(connections.values());
    }

    /** Stops accepting, closes every connection (failing its pending requests) and stops the threads. */
    @Override
    public synchronized void close() {
        if (serverChannel == null) {
            return;
        }
        serverChannel.close().syncUninterruptibly();
        for (RemotingConnection connection : connections.values()) {
            connection.channel().close().syncUninterruptibly();
        }
        shutdownGroups();
        serverChannel = null;
    }

    private void shutdownGroups() {
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
