package io.ramjet.provider.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ParkedSendRequest;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.frame.FrameTooLongException;
import io.ramjet.protocol.command.ChunkReadRequest;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.provider.client.ClientException.Reason;
import io.ramjet.provider.client.Routes.Route;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The sends of a {@link RemotingRamjetClient}: to the broker a producer's queue choice picks, to a
 * named group, parked on another group, and large messages uploaded in chunks first. Checks a
 * message against the frame limit before anything is written, and tells a send's failure in terms
 * of the message.
 */
final class MessageSends {

    private final RemotingClient remoting;
    private final NameServerClient nameServers;
    private final Routes routes;
    private final Duration timeout;
    /** A body above this many bytes, or given as a stream, is sent as a large message. */
    private final int largeMessageSize;
    private final LargeUpload largeUpload;
    /** Where large bodies are uploaded: an upload blocks its thread (it reads the application's stream). */
    private final ExecutorService uploads = Executors.newCachedThreadPool(runnable -> {
        Thread t = new Thread(runnable, "ramjet-large-upload");
        t.setDaemon(true);
        return t;
    });

    MessageSends(RemotingClient remoting, NameServerClient nameServers, Routes routes, Duration timeout,
                 ClientOptions options) {
        this.remoting = remoting;
        this.nameServers = nameServers;
        this.routes = routes;
        this.timeout = timeout;
        this.largeMessageSize = options.largeMessageSize();
        this.largeUpload = new LargeUpload(remoting, timeout, largeMessageSize, options.compressLargeMessages());
    }

    /**
     * Sends to the broker the producer's choice picks among the writable masters serving the
     * destination (created as {@link Routes} says when none does). The
     * cached route stays when the broker turns out to be gone: {@link RemotingRamjetClient#followMaster} or
     * {@link RemotingRamjetClient#routeAround} moves it. A transactional send goes without the message's idempotent
     * producer id: a transaction that failed over rolls back, so its sends are never resent.
     */
    CompletableFuture<Void> send(OutgoingMessage m, int queueChoice, long transactionId,
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

    CompletableFuture<Void> sendToGroup(OutgoingMessage m, String brokerName, int queueChoice,
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

    CompletableFuture<Void> parkedSend(OutgoingMessage m, String originGroup, int queueChoice) {
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

    /**
     * As {@link BrokerRequests#readChunk}: the answer's body arrives in a pooled buffer
     * ({@code Frame.keepsPooledBody}), copied out once and released on the I/O thread that
     * completes the request, so no buffer outlives the request whoever reads the chunk.
     */
    CompletableFuture<ByteBuffer> readChunk(String brokerAddress, String destination, long uploadId,
                                            long physicalOffset, byte[] into) {
        return RemotingFailures.translated(remoting.invoke(brokerAddress, Frame.request(CommandCode.LARGE_CHUNK_READ,
                new ChunkReadRequest(destination, uploadId, physicalOffset)), timeout).thenApply(response -> {
                    try {
                        ByteBuf body = response.body();
                        int length = body.readableBytes();
                        byte[] array = into != null && into.length >= length ? into : new byte[length];
                        body.getBytes(body.readerIndex(), array, 0, length);
                        return ByteBuffer.wrap(array, 0, length);
                    } finally {
                        Frames.release(response);
                    }
                }));
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

    /** Stops the uploads under way; their sends fail. */
    void close() {
        uploads.shutdownNow();
    }
}
