package io.ramjet.protocol.remoting;


import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameTooLongException;
import io.ramjet.protocol.frame.HeaderTypeException;
import io.ramjet.protocol.frame.RefusalLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;

/**
 * Last handler of every remoting pipeline: completes pending requests with their responses,
 * answers heartbeats, hands requests the {@link RequestGate} admits to their processors, and closes the connection, with the
 * reason logged and kept ({@link RemotingConnection#closeReason()}), on a protocol violation, an
 * unknown command or idleness. A response too long to send is replaced by an error response.
 * A request whose body stays in its pooled buffer ({@link Frame#releasePooledBody}) has it
 * released here, once: when its processing has completed, or when it is turned away before.
 */
final class RemotingHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RemotingHandler.class);

    private final RemotingConnection connection;
    private final ProcessorTable processors;
    private final List<ConnectionListener> listeners;
    private final RequestGate gate;
    private final Duration heartbeatTimeout;
    /** Where a server logs a failed TLS handshake (once per address); null on a client, which logs each. */
    private final RefusalLog handshakeRefusals;
    /** Set on the I/O thread once a failed TLS handshake was logged, so its exception is not logged again. */
    private boolean tlsHandshakeFailed;
    /** Whether any frame arrived: a plain connection closed before one did may have reached a TLS port. */
    private boolean received;
    /** The lanes of in-order commands on this connection, by code; only the I/O thread touches it. */
    private final Map<Short, InOrderLane> lanes = new HashMap<>();

    /**
     * @param heartbeatTimeout timeout of the heartbeat sent when the channel has been writer-idle,
     *                         or null when this side does not send heartbeats
     * @param handshakeRefusals a server's refusal log, through which a failed TLS handshake is
     *                          logged once per remote address (a flood of them is one line), or
     *                          null to log each (a client's own connections)
     */
    RemotingHandler(RemotingConnection connection, ProcessorTable processors, List<ConnectionListener> listeners,
                    RequestGate gate, Duration heartbeatTimeout, RefusalLog handshakeRefusals) {
        this.connection = connection;
        this.processors = processors;
        this.listeners = listeners;
        this.gate = gate;
        this.heartbeatTimeout = heartbeatTimeout;
        this.handshakeRefusals = handshakeRefusals;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        for (ConnectionListener listener : listeners) {
            notify(listener, true);
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!received && !connection.isTls()) {
            connection.closing("closed by the remote side before it sent anything (a TLS port?)");
        }
        connection.failPending();
        for (ConnectionListener listener : listeners) {
            notify(listener, false);
        }
        super.channelInactive(ctx);
    }

    private void notify(ConnectionListener listener, boolean connected) {
        try {
            if (connected) {
                listener.connected(connection);
            } else {
                listener.closed(connection);
            }
        } catch (RuntimeException e) {
            LOG.warn("connection listener {} failed on {}", listener, connection, e);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        received = true;
        Frame frame = (Frame) msg;
        if (frame.isResponse()) {
            if (!connection.complete(frame)) {
                frame.releasePooledBody();
                LOG.debug("{}: response to {} id {} arrived after its request ended",
                        connection, CommandCode.name(frame.code()), frame.requestId());
            }
            return;
        }
        if (frame.code() == CommandCode.HEARTBEAT) {
            if (frame.isRequest()) {
                connection.write(frame.reply(null));
            }
            return;
        }
        ProcessorTable.Entry entry = processors.get(frame.code());
        if (entry == null) {
            LOG.warn("{}: unknown command {}, closing the connection", connection, CommandCode.name(frame.code()));
            frame.releasePooledBody();
            connection.closing("unknown command " + CommandCode.name(frame.code()) + " received");
            ctx.close();
            return;
        }
        if (!admitted(frame)) {
            frame.releasePooledBody();
            return;
        }
        try {
            Runnable processing = () -> process(entry.processor(), frame);
            if (entry.inOrderOn() != null) {
                lanes.computeIfAbsent(frame.code(), code -> new InOrderLane(entry.inOrderOn())).execute(processing);
            } else {
                entry.executor().execute(connection, processing);
            }
        } catch (RejectedExecutionException e) {
            LOG.warn("{}: executor refused {}", connection, frame);
            frame.releasePooledBody();
            if (frame.isRequest()) {
                connection.write(frame.replyError(ErrorStatus.BUSY, "server busy: " + CommandCode.name(frame.code())));
            }
        }
    }

    /** Whether the gate lets the request through; a refused request is answered with the gate's error. */
    private boolean admitted(Frame request) {
        try {
            gate.admit(connection, request);
            return true;
        } catch (RemotingCommandException refused) {
            LOG.debug("{}: {} refused: {}", connection, CommandCode.name(request.code()), refused.getMessage());
            if (request.isRequest()) {
                connection.write(request.replyError(refused.status(), refused.getMessage()));
            }
            return false;
        } catch (RuntimeException e) {
            LOG.error("{}: request gate failed on {}", connection, CommandCode.name(request.code()), e);
            if (request.isRequest()) {
                connection.write(request.replyError(ErrorStatus.INTERNAL_ERROR, "request gate failed"));
            }
            return false;
        }
    }

    private void process(AsyncRequestProcessor processor, Frame request) {
        CompletionStage<Frame> stage;
        try {
            stage = processor.process(connection, request);
        } catch (Throwable e) {
            stage = CompletableFuture.failedFuture(e);
        }
        if (stage == null) {
            stage = CompletableFuture.completedFuture(null);
        }
        stage.whenComplete((response, failure) -> {
            request.releasePooledBody();
            respond(request, response, failure);
        });
    }

    private void respond(Frame request, Frame response, Throwable failure) {
        if (failure instanceof CompletionException && failure.getCause() != null) {
            failure = failure.getCause();
        }
        if (request.isOneWay()) {
            if (failure != null) {
                LOG.warn("{}: one-way {} failed", connection, CommandCode.name(request.code()), failure);
            }
            if (response != null) {
                response.body().release();
            }
            return;
        }
        if (failure != null) {
            connection.write(errorResponse(request, failure));
        } else if (response == null) {
            connection.write(request.reply(null));
        } else if (!response.isResponse() || response.requestId() != request.requestId()
                || response.code() != request.code()) {
            LOG.error("{}: processor of {} returned {}, which does not answer it", connection, request, response);
            response.body().release();
            connection.write(request.replyError(ErrorStatus.INTERNAL_ERROR, "processor returned a wrong response"));
        } else {
            connection.write(response).whenComplete((written, writeFailure) -> {
                if (writeFailure != null && writeFailure.getCause() instanceof FrameTooLongException tooLong) {
                    LOG.warn("{}: response to {} not sent: {}", connection, CommandCode.name(request.code()),
                            tooLong.getMessage());
                    connection.write(request.replyError(ErrorStatus.INTERNAL_ERROR, "response " + tooLong.getMessage()));
                }
            });
        }
    }

    private Frame errorResponse(Frame request, Throwable failure) {
        if (failure instanceof RemotingCommandException e) {
            return request.replyError(e.status(), e.getMessage());
        }
        if (failure instanceof HeaderTypeException) {
            return request.replyError(ErrorStatus.BAD_REQUEST, failure.getMessage());
        }
        LOG.warn("{}: {} failed", connection, CommandCode.name(request.code()), failure);
        return request.replyError(ErrorStatus.INTERNAL_ERROR, String.valueOf(failure));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent tls && !tls.isSuccess()) {
            // the one line of a failed handshake; TLS closes the connection and its exception follows
            tlsHandshakeFailed = true;
            if (handshakeRefusals != null) {
                handshakeRefusals.refused(ctx.channel().remoteAddress(), "a TLS handshake failed: "
                        + TlsFailures.describe(tls.cause()));
            } else {
                LOG.warn("{}: TLS handshake failed, closing the connection: {}", connection,
                        TlsFailures.describe(tls.cause()));
            }
            connection.closing("TLS handshake failed: " + TlsFailures.describe(tls.cause()));
            return;
        }
        if (!(evt instanceof IdleStateEvent idle)) {
            super.userEventTriggered(ctx, evt);
            return;
        }
        if (idle.state() == IdleState.WRITER_IDLE && heartbeatTimeout != null) {
            connection.invoke(Frame.request(CommandCode.HEARTBEAT, null), heartbeatTimeout)
                    .exceptionally(e -> null);
        } else if (idle.state() == IdleState.READER_IDLE) {
            LOG.warn("{}: nothing received for too long, closing the connection", connection);
            connection.closing("nothing received for too long");
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel().isActive() && !tlsHandshakeFailed) {
            LOG.warn("{}: closing the connection: {}", connection, TlsFailures.describe(cause));
        }
        connection.closing(TlsFailures.describe(cause));
        ctx.close();
    }
}
