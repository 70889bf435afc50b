package io.ramjet.protocol.remoting;

import io.ramjet.protocol.frame.FrameDescriptor;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link RemotingServer}.
 *
 * @param host           address to bind
 * @param port           port to bind; 0 picks a free one, see {@link RemotingServer#port()}
 * @param ioThreads      Netty worker threads
 * @param maxFrameLength largest accepted frame (value of its length field)
 * @param idleTimeout    a connection from which nothing arrives for this long is closed;
 *                       clients heartbeat well within it
 */
public record RemotingServerConfig(String host, int port, int ioThreads, int maxFrameLength, Duration idleTimeout) {

    public RemotingServerConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads " + ioThreads);
        }
        if (maxFrameLength < FrameDescriptor.FIXED_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength " + maxFrameLength);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout " + idleTimeout);
        }
    }

    /** 127.0.0.1, the given port, 4 I/O threads, 16 MiB frames, 120 s idle timeout. */
    public static RemotingServerConfig onPort(int port) {
        return new RemotingServerConfig("127.0.0.1", port, 4, FrameDescriptor.DEFAULT_MAX_FRAME_LENGTH,
                Duration.ofSeconds(120));
    }

    public RemotingServerConfig withHost(String newHost) {
        return new RemotingServerConfig(newHost, port, ioThreads, maxFrameLength, idleTimeout);
    }

    public RemotingServerConfig withPort(int newPort) {
        return new RemotingServerConfig(host, newPort, ioThreads, maxFrameLength, idleTimeout);
    }

    public RemotingServerConfig withIoThreads(int threads) {
        return new RemotingServerConfig(host, port, threads, maxFrameLength, idleTimeout);
    }

    public RemotingServerConfig withMaxFrameLength(int length) {
        return new RemotingServerConfig(host, port, ioThreads, length, idleTimeout);
    }

    public RemotingServerConfig withIdleTimeout(Duration timeout) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, timeout);
    }
}
