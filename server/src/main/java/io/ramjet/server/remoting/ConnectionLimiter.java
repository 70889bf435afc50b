package io.ramjet.server.remoting;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.frame.RefusalLog;

import io.ramjet.server.config.ConnectionLimits;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The first handler of every accepted connection: closes a new connection at once when the server
 * already holds {@link ConnectionLimits#maxConnections()} in all, {@link ConnectionLimits#maxPerAddress()}
 * from its address, or (when login is required) {@link ConnectionLimits#maxUnauthenticated()} that have
 * not authenticated; counts a connection as authenticated when {@link FrameDecoder.Authenticated} passes.
 * Refusals are logged once per address ({@link RefusalLog}). Shared by the server's connections;
 * thread-safe.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("ramjet.limits.counted");
    private static final AttributeKey<Boolean> UNAUTHENTICATED = AttributeKey.valueOf("ramjet.limits.unauthenticated");

    private final ConnectionLimits limits;
    private final RefusalLog refusals;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger unauthenticated = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> byHost = new ConcurrentHashMap<>();

    ConnectionLimiter(ConnectionLimits limits, RefusalLog refusals) {
        this.limits = limits;
        this.refusals = refusals;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        String host = RefusalLog.host(ctx.channel().remoteAddress());
        String refusal = admit(host);
        if (refusal != null) {
            refusals.refused(ctx.channel().remoteAddress(), "a connection: " + refusal);
            ctx.close();
            return;
        }
        ctx.channel().attr(COUNTED).set(true);
        if (limits.loginRequired()) {
            ctx.channel().attr(UNAUTHENTICATED).set(true);
        }
        super.channelActive(ctx);
    }

    /** Counts the connection in, or returns why it is refused (counting nothing). */
    private String admit(String host) {
        if (open.incrementAndGet() > limits.maxConnections()) {
            open.decrementAndGet();
            return limits.maxConnections() + " connections open (maxConnections)";
        }
        AtomicInteger fromHost = byHost.computeIfAbsent(host, h -> new AtomicInteger());
        if (fromHost.incrementAndGet() > limits.maxPerAddress()) {
            release(host);
            return limits.maxPerAddress() + " connections open from it (maxConnectionsPerAddress)";
        }
        if (limits.loginRequired() && unauthenticated.incrementAndGet() > limits.maxUnauthenticated()) {
            unauthenticated.decrementAndGet();
            release(host);
            return limits.maxUnauthenticated() + " connections open that have not authenticated"
                    + " (maxUnauthenticatedConnections)";
        }
        return null;
    }

    private void release(String host) {
        open.decrementAndGet();
        byHost.computeIfPresent(host, (h, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    private void leaveUnauthenticated(ChannelHandlerContext ctx) {
        if (Boolean.TRUE.equals(ctx.channel().attr(UNAUTHENTICATED).getAndSet(null))) {
            unauthenticated.decrementAndGet();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof FrameDecoder.Authenticated) {
            leaveUnauthenticated(ctx);
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (Boolean.TRUE.equals(ctx.channel().attr(COUNTED).getAndSet(null))) {
            leaveUnauthenticated(ctx);
            release(RefusalLog.host(ctx.channel().remoteAddress()));
        }
        super.channelInactive(ctx);
    }
}
