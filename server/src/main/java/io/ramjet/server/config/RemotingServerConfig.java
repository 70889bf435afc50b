package io.ramjet.server.config;

import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.remoting.Transport;
import io.ramjet.protocol.remoting.tls.ServerTls;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link io.ramjet.server.remoting.RemotingServer}.
 *
 * @param role           what the server is ("NameServer", "broker"), named when it cannot bind
 * @param host           address to bind
 * @param advertisedHost address to announce, or null for {@link Hosts#advertised the default}
 * @param port           port to bind; 0 picks a free one, see {@link io.ramjet.server.remoting.RemotingServer#port()}
 * @param advertisedPort port to announce (a port forward's or proxy's in front of this one), or 0
 *                       to announce the bound port
 * @param ioThreads      Netty worker threads
 * @param maxFrameLength largest accepted frame (value of its length field)
 * @param idleTimeout    a connection from which nothing arrives for this long is closed;
 *                       clients heartbeat well within it
 * @param tls            how connections are accepted with TLS; null for plain TCP
 * @param nativeTransport use the native epoll transport where it loads ({@link Transport#choose})
 * @param limits         connections accepted, and the memory their frames may hold
 */
public record RemotingServerConfig(String role, String host, String advertisedHost, int port, int advertisedPort,
                                   int ioThreads,
                                   int maxFrameLength, Duration idleTimeout, ServerTls tls,
                                   boolean nativeTransport, ConnectionLimits limits) {

    public RemotingServerConfig {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(limits, "limits");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port);
        }
        if (advertisedPort < 0 || advertisedPort > 65535) {
            throw new IllegalArgumentException("advertisedPort " + advertisedPort);
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

    /** A "server" on 127.0.0.1, the given port, 4 I/O threads, 16 MiB frames, 120 s idle timeout, plain TCP,
     * native transport where it loads. */
    public static RemotingServerConfig onPort(int port) {
        return new RemotingServerConfig("server", "127.0.0.1", null, port, 0, 4,
                FrameDescriptor.DEFAULT_MAX_FRAME_LENGTH, Duration.ofSeconds(120), null, true, ConnectionLimits.DEFAULT);
    }

    /** The {@code host} part of {@link io.ramjet.server.remoting.RemotingServer#address()}: what clients are told to connect to. */
    public String announcedHost() {
        return Hosts.advertised(host, advertisedHost);
    }

    public RemotingServerConfig withRole(String newRole) {
        return new RemotingServerConfig(newRole, host, advertisedHost, port, advertisedPort,
                ioThreads, maxFrameLength, idleTimeout, tls, nativeTransport, limits);
    }

    public RemotingServerConfig withHost(String newHost) {
        return new RemotingServerConfig(role, newHost, advertisedHost, port, advertisedPort,
                ioThreads, maxFrameLength, idleTimeout, tls, nativeTransport, limits);
    }

    /** Null announces the default of {@link Hosts#advertised}. */
    public RemotingServerConfig withAdvertisedHost(String announced) {
        return new RemotingServerConfig(role, host, announced, port, advertisedPort,
                ioThreads, maxFrameLength, idleTimeout, tls, nativeTransport, limits);
    }

    /** The {@code port} part of {@link io.ramjet.server.remoting.RemotingServer#address()}, given the port the server bound. */
    public int announcedPort(int boundPort) {
        return advertisedPort == 0 ? boundPort : advertisedPort;
    }

    /** 0 announces the bound port. */
    public RemotingServerConfig withAdvertisedPort(int announced) {
        return new RemotingServerConfig(role, host, advertisedHost, port, announced, ioThreads, maxFrameLength,
                idleTimeout, tls, nativeTransport, limits);
    }

    public RemotingServerConfig withPort(int newPort) {
        return new RemotingServerConfig(role, host, advertisedHost, newPort, advertisedPort,
                ioThreads, maxFrameLength, idleTimeout, tls, nativeTransport, limits);
    }

    public RemotingServerConfig withIoThreads(int threads) {
        return new RemotingServerConfig(role, host, advertisedHost, port, advertisedPort,
                threads, maxFrameLength, idleTimeout, tls, nativeTransport, limits);
    }

    public RemotingServerConfig withMaxFrameLength(int length) {
        return new RemotingServerConfig(role, host, advertisedHost, port, advertisedPort,
                ioThreads, length, idleTimeout, tls, nativeTransport, limits);
    }

    public RemotingServerConfig withIdleTimeout(Duration timeout) {
        return new RemotingServerConfig(role, host, advertisedHost, port, advertisedPort,
                ioThreads, maxFrameLength, timeout, tls, nativeTransport, limits);
    }

    /** Null accepts plain TCP. */
    public RemotingServerConfig withTls(ServerTls newTls) {
        return new RemotingServerConfig(role, host, advertisedHost, port, advertisedPort,
                ioThreads, maxFrameLength, idleTimeout, newTls, nativeTransport, limits);
    }

    public RemotingServerConfig withLimits(ConnectionLimits newLimits) {
        return new RemotingServerConfig(role, host, advertisedHost, port, advertisedPort,
                ioThreads, maxFrameLength, idleTimeout, tls, nativeTransport, newLimits);
    }

    /** False keeps NIO even where the native transport would load. */
    public RemotingServerConfig withNativeTransport(boolean allowed) {
        return new RemotingServerConfig(role, host, advertisedHost, port, advertisedPort,
                ioThreads, maxFrameLength, idleTimeout, tls, allowed, limits);
    }
}
