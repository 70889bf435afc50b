package io.ramjet.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP forwarder on 127.0.0.1 (an ephemeral port) to one target, standing for the network
 * between two processes. {@link #cut()} is a partition: the connections open now are dropped and
 * new ones are accepted but never forwarded nor answered (a black hole, so the far side sees
 * silence, not a refusal); {@link #heal()} drops the held ones and forwards new ones again.
 * Thread-safe.
 */
final class TcpProxy implements AutoCloseable {

    private final int targetPort;
    private final ServerSocket server;
    private final List<Socket> open = new ArrayList<>();
    private final AtomicLong forwarded = new AtomicLong();
    private volatile boolean cut;
    private volatile boolean closed;

    TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-accept-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    String address() {
        return "127.0.0.1:" + port();
    }

    /** Bytes forwarded either way so far. */
    long forwarded() {
        return forwarded.get();
    }

    synchronized void cut() {
        cut = true;
        dropOpen();
    }

    synchronized void heal() {
        cut = false;
        dropOpen();
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        server.close();
        dropOpen();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                synchronized (this) {
                    open.add(client);
                    if (!cut) {
                        Socket target = new Socket();
                        target.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2_000);
                        open.add(target);
                        pump(client, target);
                        pump(target, client);
                    }
                }
            } catch (IOException e) {
                // the server socket closed, or the target refused: the client sees its connection end
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    forwarded.addAndGet(n);
                }
            } catch (IOException e) {
                // one side closed or was dropped by cut(): the other is closed below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "proxy-pump-" + port());
        t.setDaemon(true);
        t.start();
    }

    private void dropOpen() {
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
