package io.ramjet.protocol.remoting;

import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.remoting.tls.ClientTls;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link RemotingClient}.
 *
 * @param ioThreads         Netty threads shared by all its connections
 * @param connectTimeout    how long opening a connection may take
 * @param requestTimeout    timeout of requests sent without an explicit one
 * @param heartbeatInterval a connection that has written nothing for this long sends a heartbeat
 * @param idleTimeout       a connection that has received nothing for this long (heartbeat
 *                          responses included) is considered dead and closed
 * @param maxFrameLength    largest accepted frame (value of its length field)
 * @param tls               how connections use TLS; null for plain TCP
 * @param nativeTransport   use the native epoll transport where it loads ({@link Transport#choose})
 */
public record RemotingClientConfig(int ioThreads, Duration connectTimeout, Duration requestTimeout,
                                   Duration heartbeatInterval, Duration idleTimeout, int maxFrameLength,
                                   ClientTls tls, boolean nativeTransport) {

    public RemotingClientConfig {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads " + ioThreads);
        }
        if (heartbeatInterval.compareTo(idleTimeout) >= 0) {
            throw new IllegalArgumentException("heartbeatInterval " + heartbeatInterval
                    + " must be shorter than idleTimeout " + idleTimeout);
        }
        if (maxFrameLength < FrameDescriptor.FIXED_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength " + maxFrameLength);
        }
    }

    /** 2 I/O threads, 3 s connect, 3 s requests, 30 s heartbeats, 120 s idle timeout, 16 MiB frames, plain TCP, native transport where it loads. */
    public static RemotingClientConfig defaults() {
        return new RemotingClientConfig(2, Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(30),
                Duration.ofSeconds(120), FrameDescriptor.DEFAULT_MAX_FRAME_LENGTH, null, true);
    }

    public RemotingClientConfig withIoThreads(int threads) {
        return new RemotingClientConfig(threads, connectTimeout, requestTimeout, heartbeatInterval, idleTimeout,
                maxFrameLength, tls, nativeTransport);
    }

    public RemotingClientConfig withConnectTimeout(Duration timeout) {
        return new RemotingClientConfig(ioThreads, timeout, requestTimeout, heartbeatInterval, idleTimeout,
                maxFrameLength, tls, nativeTransport);
    }

    public RemotingClientConfig withRequestTimeout(Duration timeout) {
        return new RemotingClientConfig(ioThreads, connectTimeout, timeout, heartbeatInterval, idleTimeout,
                maxFrameLength, tls, nativeTransport);
    }

    /** Heartbeat interval and idle timeout together, since one must stay below the other. */
    public RemotingClientConfig withHeartbeat(Duration interval, Duration timeout) {
        return new RemotingClientConfig(ioThreads, connectTimeout, requestTimeout, interval, timeout, maxFrameLength,
                tls, nativeTransport);
    }

    public RemotingClientConfig withMaxFrameLength(int length) {
        return new RemotingClientConfig(ioThreads, connectTimeout, requestTimeout, heartbeatInterval, idleTimeout,
                length, tls, nativeTransport);
    }

    /** Null connects in plain TCP. */
    public RemotingClientConfig withTls(ClientTls newTls) {
        return new RemotingClientConfig(ioThreads, connectTimeout, requestTimeout, heartbeatInterval, idleTimeout,
                maxFrameLength, newTls, nativeTransport);
    }

    /** False keeps NIO even where the native transport would load. */
    public RemotingClientConfig withNativeTransport(boolean allowed) {
        return new RemotingClientConfig(ioThreads, connectTimeout, requestTimeout, heartbeatInterval, idleTimeout,
                maxFrameLength, tls, allowed);
    }
}
