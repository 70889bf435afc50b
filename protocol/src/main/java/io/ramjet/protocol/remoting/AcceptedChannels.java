package io.ramjet.protocol.remoting;

import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.frame.FrameEncoder;
import io.ramjet.protocol.frame.RefusalLog;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline of a socket a server accepted: TLS first when the server has a context, closed
 * when silent past the idle timeout (the client heartbeats), framed, and served by the
 * processors the gate admits. The accepting side
 * itself ({@code io.ramjet.server.remoting.RemotingServer}) is not in the client jar.
 */
public final class AcceptedChannels {

    private AcceptedChannels() {
    }

    /**
     * Sets up {@code channel} and returns its connection.
     *
     * @param tls     the server's TLS context, or null for plain TCP
     * @param decoder  the channel's own frame decoder
     * @param refusals the server's refusal log, which also logs failed TLS handshakes
     */
    public static RemotingConnection install(SocketChannel channel, SslContext tls, Duration idleTimeout,
                                             FrameDecoder decoder, FrameEncoder encoder,
                                             ProcessorTable processors, List<ConnectionListener> listeners,
                                             RequestGate gate, RefusalLog refusals) {
        RemotingConnection connection = new RemotingConnection(channel);
        if (tls != null) {
            channel.pipeline().addLast(tls.newHandler(channel.alloc()));
        }
        channel.pipeline().addLast(
                Flushes.consolidated(),
                new IdleStateHandler(idleTimeout.toNanos(), 0, 0, TimeUnit.NANOSECONDS),
                decoder,
                encoder,
                new RemotingHandler(connection, processors, listeners, gate, null, refusals));
        return connection;
    }
}
