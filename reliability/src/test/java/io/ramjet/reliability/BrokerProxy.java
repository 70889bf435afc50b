package io.ramjet.reliability;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.ramjet.protocol.command.ClusterAuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ReplicaFetchRequest;
import io.ramjet.protocol.command.ReplicaHandshakeRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.frame.HeaderCodec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of one broker: it accepts on an ephemeral 127.0.0.1 port (the broker's
 * {@code advertisedPort}, so clients and slaves reach the broker through it) and forwards each
 * connection to the broker's real port, both directions, byte for byte. It tells a slave's
 * connections by their first frames, decoded with the protocol's own {@link FrameDecoder}: the
 * cluster handshake's {@code CLUSTER_AUTHENTICATE}, then {@code REPLICA_HANDSHAKE} or
 * {@code REPLICA_FETCH}; each carries the slave's {@code brokerId}.
 *
 * <p>{@link #cut} stops forwarding, both ways, on that slave's connections and on every one it
 * opens while cut, without closing any: a cut network, not a reset, so each end must notice the
 * silence itself. {@link #heal} forwards the slave's new connections again; the connections
 * blackholed by the cut stay silent until the proxy closes (as behind a NAT or firewall that lost
 * their state), so the slave recovers only by giving up on them and connecting again.
 *
 * <p>Threads: one accepting, two per connection (blocking sockets); {@link #close} ends them all.
 */
final class BrokerProxy implements AutoCloseable {

    private static final int CHUNK = 64 * 1024;
    private static final long CLIENT = -1;

    private final String name;
    private final int brokerPort;
    private final ServerSocket server;
    private final Set<Long> cut = ConcurrentHashMap.newKeySet();
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Listens at once on an ephemeral port; forwards to {@code 127.0.0.1:brokerPort} from {@link #start()}. */
    BrokerProxy(String name, int brokerPort) throws IOException {
        this.name = name;
        this.brokerPort = brokerPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    int port() {
        return server.getLocalPort();
    }

    void start() {
        Thread acceptor = new Thread(this::accept, "proxy-" + name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Stops forwarding on slave {@code brokerId}'s replication connections, the present and the next. */
    void cut(long brokerId) {
        cut.add(brokerId);
        links.stream().filter(l -> l.slaveId == brokerId).forEach(Link::blackhole);
    }

    /** Forwards slave {@code brokerId}'s new connections again; those blackholed stay silent. */
    void heal(long brokerId) {
        cut.remove(brokerId);
    }

    boolean isCut(long brokerId) {
        return cut.contains(brokerId);
    }

    /** How many of slave {@code brokerId}'s connections were blackholed so far. */
    long blackholed(long brokerId) {
        return links.stream().filter(l -> l.slaveId == brokerId && l.blackholed).count();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        links.forEach(Link::close);
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            Link link = new Link(client);
            links.add(link);
            Thread t = new Thread(link::open, "proxy-" + name + "-link");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing a proxy's socket: nothing to do about a failure
        }
    }

    /** One proxied connection: the client's socket and the one to the broker. */
    private final class Link {
        private final Socket client;
        private final Socket broker = new Socket();
        private volatile long slaveId = CLIENT;
        private volatile boolean blackholed;

        Link(Socket client) {
            this.client = client;
        }

        /** Connects to the broker (a dead broker resets the client), then forwards both ways. */
        void open() {
            try {
                client.setTcpNoDelay(true);
                broker.setTcpNoDelay(true);
                broker.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), brokerPort), 5_000);
            } catch (IOException e) {
                reset();
                return;
            }
            Thread back = new Thread(() -> pump(broker, client, null), "proxy-" + name + "-back");
            back.setDaemon(true);
            back.start();
            EmbeddedChannel decoder = new EmbeddedChannel(
                    new FrameDecoder(FrameDescriptor.DEFAULT_MAX_FRAME_LENGTH, new HeaderCodec()));
            try {
                pump(client, broker, decoder);
            } finally {
                decoder.finishAndReleaseAll();
            }
        }

        /**
         * Copies {@code from} to {@code to} until either closes. With a {@code decoder} (the
         * client's direction) each chunk is decoded before it is forwarded, until a frame other
         * than the cluster challenge identifies the connection (see {@link #identify}), so that a
         * cut slave's identifying frame is never forwarded.
         */
        private void pump(Socket from, Socket to, EmbeddedChannel decoder) {
            boolean identifying = decoder != null;
            byte[] buffer = new byte[CHUNK];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    if (identifying) {
                        identifying = identifyIn(decoder, buffer, n);
                    }
                    awaitForwarding();
                    out.write(buffer, 0, n);
                }
            } catch (IOException | InterruptedException e) {
                // either side closed or reset, or the proxy closes: the link ends
            }
            close();
        }

        /** Decodes the frames a chunk completes; false once one identified the connection, or it is not this protocol. */
        private boolean identifyIn(EmbeddedChannel decoder, byte[] buffer, int length) {
            try {
                decoder.writeInbound(Unpooled.copiedBuffer(buffer, 0, length));
            } catch (DecoderException e) {
                return false;
            }
            for (Frame frame = decoder.readInbound(); frame != null; frame = decoder.readInbound()) {
                boolean challenge = frame.code() == CommandCode.CLUSTER_CHALLENGE;
                identify(frame);
                if (!challenge) {
                    return false;
                }
            }
            return true;
        }

        /**
         * A broker proves itself a cluster member ({@code CLUSTER_AUTHENTICATE}) before it asks
         * anything else, and asks a master for replication with {@code REPLICA_HANDSHAKE} or
         * {@code REPLICA_FETCH}; each names the broker's id. A connection so named belongs to that
         * slave, and is blackholed at once if it is cut.
         */
        private void identify(Frame frame) {
            if (frame.code() == CommandCode.CLUSTER_AUTHENTICATE) {
                slaveId = frame.header(ClusterAuthenticateRequest.class).brokerId();
            } else if (frame.code() == CommandCode.REPLICA_HANDSHAKE) {
                slaveId = frame.header(ReplicaHandshakeRequest.class).brokerId();
            } else if (frame.code() == CommandCode.REPLICA_FETCH) {
                slaveId = frame.header(ReplicaFetchRequest.class).brokerId();
            }
            if (frame.body() != null) {
                frame.body().release();
            }
            if (slaveId != CLIENT && cut.contains(slaveId)) {
                blackhole();
            }
        }

        /** Returns while the link forwards; a blackholed one holds its bytes until the proxy closes. */
        private synchronized void awaitForwarding() throws InterruptedException {
            while (blackholed && !closed) {
                wait();
            }
            if (closed) {
                throw new InterruptedException("proxy closed");
            }
        }

        synchronized void blackhole() {
            blackholed = true;
        }

        /** Closes the client's connection with a reset, as a port nobody listens on would. */
        private void reset() {
            try {
                client.setSoLinger(true, 0);
            } catch (IOException ignored) {
                // closing anyway
            }
            close();
        }

        synchronized void close() {
            closeQuietly(client);
            closeQuietly(broker);
            if (!blackholed) {
                links.remove(this);
            }
            notifyAll();
        }
    }
}
