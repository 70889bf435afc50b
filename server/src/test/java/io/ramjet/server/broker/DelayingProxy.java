package io.ramjet.server.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on 127.0.0.1 that passes requests on at once and hands every byte of the answers
 * back {@code answerDelay} after it arrived, in order: a slow server (or a slow network back
 * from it) as its clients see it. Closing it closes every connection it holds.
 */
final class DelayingProxy implements AutoCloseable {

    private record Chunk(byte[] bytes, long dueNanos) {
    }

    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final long delayNanos;
    private final List<Socket> sockets = new ArrayList<>();
    private volatile boolean closed;

    DelayingProxy(String targetHost, int targetPort, Duration answerDelay) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.delayNanos = answerDelay.toNanos();
        thread("delaying-proxy-accept", this::acceptLoop);
    }

    int port() {
        return listener.getLocalPort();
    }

    private static void thread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(targetHost, targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(server);
                }
                BlockingQueue<Chunk> answers = new LinkedBlockingQueue<>();
                thread("delaying-proxy-requests", () -> pump(client, server));
                thread("delaying-proxy-answers-in", () -> collect(server, answers));
                thread("delaying-proxy-answers-out", () -> release(answers, client));
            } catch (IOException e) {
                if (!closed) {
                    LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a side closed: the other goes with it
        }
        closeQuietly(from);
        closeQuietly(to);
    }

    private void collect(Socket from, BlockingQueue<Chunk> answers) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                answers.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos));
            }
        } catch (IOException e) {
            // closed
        }
        answers.add(new Chunk(null, System.nanoTime() + delayNanos));
    }

    private void release(BlockingQueue<Chunk> answers, Socket to) {
        try (OutputStream out = to.getOutputStream()) {
            while (true) {
                Chunk chunk = answers.take();
                for (long wait; (wait = chunk.dueNanos() - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(wait);
                }
                if (chunk.bytes() == null) {
                    break;
                }
                out.write(chunk.bytes());
                out.flush();
            }
        } catch (IOException e) {
            // closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(to);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        synchronized (sockets) {
            sockets.forEach(DelayingProxy::closeQuietly);
        }
    }
}
