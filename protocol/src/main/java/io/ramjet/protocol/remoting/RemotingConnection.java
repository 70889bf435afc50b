package io.ramjet.protocol.remoting;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameTooLongException;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.Principal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.security.auth.x500.X500Principal;

/**
 * One open connection, seen the same way from a server and a client: it sends requests and
 * correlates their responses by request id, sends one-way frames, and fails every pending
 * request with a {@link RemotingConnectionException} when it closes. A frame too long for the
 * peer fails alone, with a plain {@link RemotingException}, and leaves the connection open.
 *
 * <p>Thread-safe. Returned futures complete on the connection's I/O thread: chain blocking
 * work with the {@code *Async} variants.
 */
public final class RemotingConnection {

    private final Channel channel;
    private final PendingRequests pending;
    private final AtomicInteger lastRequestId = new AtomicInteger();
    private final CompletableFuture<Void> closeFuture = new CompletableFuture<>();
    private volatile String closeReason;

    RemotingConnection(Channel channel) {
        this.channel = channel;
        this.pending = new PendingRequests(channel.eventLoop(), this::remoteAddress);
        channel.closeFuture().addListener(f -> closeFuture.complete(null));
    }

    /**
     * Sends a request; the future completes with its response, or fails with
     * {@link RemotingTimeoutException}, {@link RemotingConnectionException} or, when the remote
     * side answered with an error, {@link RemotingCommandException}.
     */
    public CompletableFuture<Frame> invoke(Frame request, Duration timeout) {
        if (!request.isRequest()) {
            throw new IllegalArgumentException("not a request: " + request);
        }
        if (!channel.isActive()) {
            request.body().release();
            return CompletableFuture.failedFuture(new RemotingConnectionException("connection to " + remoteAddress()
                    + " is closed: " + CommandCode.name(request.code()) + " not sent"));
        }
        int id = nextRequestId();
        CompletableFuture<Frame> future = new CompletableFuture<>();
        try {
            pending.add(id, request.code(), future, timeout.toNanos());
        } catch (RejectedExecutionException shutDown) {
            request.body().release();
            return CompletableFuture.failedFuture(new RemotingConnectionException("connection to " + remoteAddress()
                    + " is shutting down: " + CommandCode.name(request.code()) + " not sent"));
        }
        if (!channel.isActive() && pending.remove(id, future)) {
            // closed since the check above: its pending requests may have been failed already, and
            // a timeout sweep may never run again on a stopped event loop
            request.body().release();
            return CompletableFuture.failedFuture(new RemotingConnectionException("connection to " + remoteAddress()
                    + " closed: " + CommandCode.name(request.code()) + " not sent"));
        }
        writeInCallOrder(request.withRequestId(id), written -> {
            if (!written.isSuccess() && pending.remove(id, future)) {
                future.completeExceptionally(writeFailure(request, written.cause()));
            }
        });
        return future;
    }

    /** Sends a frame that expects no response; the future completes once it is written. */
    public CompletableFuture<Void> sendOneWay(Frame frame) {
        if (!frame.isOneWay()) {
            throw new IllegalArgumentException("not a one-way frame: " + frame);
        }
        return write(frame);
    }

    CompletableFuture<Void> write(Frame frame) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        writeInCallOrder(frame, written -> {
            if (written.isSuccess()) {
                future.complete(null);
            } else {
                future.completeExceptionally(writeFailure(frame, written.cause()));
            }
        });
        return future;
    }

    /**
     * Runs {@code task} on this connection's I/O thread behind the work already queued there: when
     * called on that thread while it processes what it read, once those reads are processed and
     * before the thread waits for more.
     *
     * @throws RejectedExecutionException when the I/O thread is shutting down
     */
    public void afterReads(Runnable task) {
        channel.eventLoop().execute(task);
    }

    /**
     * Writes the frame behind every frame asked for before this call, from any thread. Netty
     * writes at once on the channel's I/O thread but queues a write from another thread as a task
     * of that thread, so a write asked for on the I/O thread while it is busy would overtake one
     * another thread asked for just before (an idempotent producer's earlier send would then reach
     * the broker after a later one and be dropped as a resend): on the I/O thread the write is queued
     * as a task too.
     */
    private void writeInCallOrder(Frame frame, ChannelFutureListener onWritten) {
        EventLoop loop = channel.eventLoop();
        if (loop.inEventLoop()) {
            try {
                loop.execute(() -> channel.writeAndFlush(frame).addListener(onWritten));
                return;
            } catch (RejectedExecutionException shuttingDown) {
                // the loop takes no more tasks: the write below fails as the channel does
            }
        }
        channel.writeAndFlush(frame, anyThreadPromise()).addListener(onWritten);
    }

    /**
     * A promise whose listeners run on the thread that completes it: on the I/O thread for a
     * write that reached it, on the caller's for one its terminated loop refused (a stopping
     * server answering a request still in process). A promise of the channel would hand its
     * listeners to that loop, which refuses them and logs an ERROR for every such answer.
     */
    private ChannelPromise anyThreadPromise() {
        return new DefaultChannelPromise(channel, ImmediateEventExecutor.INSTANCE);
    }

    /**
     * A frame refused by the encoder for its length was not written at all, so the connection
     * is fine and the failure is the frame's alone; any other write failure is the connection's.
     */
    private RemotingException writeFailure(Frame frame, Throwable cause) {
        if (cause instanceof FrameTooLongException tooLong) {
            return new RemotingException(tooLong.getMessage(), tooLong);
        }
        return new RemotingConnectionException(CommandCode.name(frame.code()) + " could not be sent to "
                + remoteAddress(), cause);
    }

    /**
     * Completes the request this response answers; false when none is pending (timed out
     * already). A pooled body ({@link Frame#keepsPooledBody}) goes with the response to the
     * request's future, or is released here when the future does not take it.
     */
    boolean complete(Frame response) {
        PendingRequests.Pending entry = pending.remove(response.requestId());
        if (entry == null) {
            return false;
        }
        if (entry.code() != response.code()) {
            response.releasePooledBody();
            entry.future().completeExceptionally(new RemotingCommandException(
                    ErrorStatus.INTERNAL_ERROR,
                    "response code " + response.code() + " does not match request " + CommandCode.name(entry.code())));
        } else if (response.isError()) {
            ErrorHeader error = response.header() instanceof ErrorHeader h ? h
                    : new ErrorHeader(ErrorStatus.INTERNAL_ERROR, "error without ErrorHeader");
            entry.future().completeExceptionally(new RemotingCommandException(error.status(), error.message()));
        } else if (!entry.future().complete(response)) {
            response.releasePooledBody();
        }
        return true;
    }

    void failPending() {
        pending.failAll((id, code) -> new RemotingConnectionException("connection to " + remoteAddress()
                + " closed (" + closeReason() + ") before the response to " + CommandCode.name(code) + " id " + id));
    }

    private int nextRequestId() {
        int id = lastRequestId.incrementAndGet();
        while (id == 0) {
            id = lastRequestId.incrementAndGet();
        }
        return id;
    }

    public boolean isActive() {
        return channel.isActive();
    }

    /**
     * Whether the outbound buffer is below Netty's high water mark; a sender of unsolicited
     * data (pushed messages) should wait for it rather than queue without bound.
     */
    public boolean isWritable() {
        return channel.isWritable();
    }

    /** Peer address as {@code host:port}. */
    public String remoteAddress() {
        SocketAddress address = channel.remoteAddress();
        if (address instanceof InetSocketAddress inet) {
            return inet.getHostString() + ":" + inet.getPort();
        }
        return Objects.toString(address);
    }

    /** Whether the connection runs over TLS. */
    public boolean isTls() {
        return channel.pipeline().get(SslHandler.class) != null;
    }

    /**
     * The subject of the certificate the peer presented and TLS verified against this side's
     * trust store (mutual TLS); empty on a plain connection, when the peer presented none, or
     * before the TLS handshake completed (no request is served before it has).
     */
    public Optional<X500Principal> peerPrincipal() {
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        if (ssl == null) {
            return Optional.empty();
        }
        try {
            Principal peer = ssl.engine().getSession().getPeerPrincipal();
            return peer instanceof X500Principal subject ? Optional.of(subject) : Optional.empty();
        } catch (SSLPeerUnverifiedException none) {
            return Optional.empty();
        }
    }

    /** The Netty channel, for per-connection attributes ({@link Channel#attr}). */
    public Channel channel() {
        return channel;
    }

    /** Closes the connection; pending requests fail. */
    public CompletableFuture<Void> close() {
        closing("closed by this side");
        channel.close();
        return closeFuture;
    }

    /** Records why the connection is about to close, unless a reason is known already. */
    void closing(String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
    }

    /** Why the connection closed (or is closing), as far as this side knows. */
    public String closeReason() {
        String reason = closeReason;
        return reason != null ? reason : "closed by the remote side or the network";
    }

    /** Completes when the connection has closed, whoever closed it. */
    public CompletableFuture<Void> closeFuture() {
        return closeFuture;
    }

    @Override
    public String toString() {
        return "RemotingConnection[" + channel.localAddress() + " -> " + channel.remoteAddress() + "]";
    }
}
