package io.ramjet.bench.peer;

import io.ramjet.bench.workload.Workloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Apache RocketMQ in two child JVMs ({@link RocketMqServerMain}), each a NameServer and a master
 * broker: one with {@code SYNC_FLUSH} for the persistent rows (its JVM holds the backlog), one
 * with {@code ASYNC_FLUSH} for the non-persistent ones. Each gets {@code user.home} and
 * {@code rocketmq.home.dir} in its temporary directory, where RocketMQ puts its logs.
 */
public final class RocketMqPeer implements Peer {

    private final TemporaryDirectory data;
    private final PeerProcess syncFlush;
    private final PeerProcess asyncFlush;

    private RocketMqPeer(TemporaryDirectory data, PeerProcess syncFlush, PeerProcess asyncFlush) {
        this.data = data;
        this.syncFlush = syncFlush;
        this.asyncFlush = asyncFlush;
    }

    /** Starts both brokers (at once: each takes seconds) and waits until both serve. */
    public static RocketMqPeer start(String heap) throws IOException {
        TemporaryDirectory data = new TemporaryDirectory("rocketmq-peer");
        CompletableFuture<PeerProcess> async = CompletableFuture.supplyAsync(() -> {
            try {
                return broker(heap, data, "async", "ASYNC_FLUSH", List.of());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        PeerProcess sync = null;
        try {
            sync = broker(heap, data, "sync", "SYNC_FLUSH", List.of());
            return new RocketMqPeer(data, sync, async.join());
        } catch (IOException | RuntimeException e) {
            if (sync != null) {
                sync.close();
            }
            try {
                async.join().close();
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            data.close();
            if (e instanceof CompletionException c && c.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw e;
        }
    }

    /** A {@link RocketMqServerMain} JVM with its home, logs and data under {@code data/name}. */
    static PeerProcess broker(String heap, TemporaryDirectory data, String name, String flush, List<String> jvmArgs)
            throws IOException {
        String home = data.path().resolve(name).toString();
        // its remoting server writes a self-signed certificate and key to java.io.tmpdir at every
        // start (TLS mode permissive, its default) and never deletes them: kept with the data
        Path tmp = Files.createDirectories(data.path().resolve(name + "-tmp"));
        List<String> args = new ArrayList<>(List.of("-Duser.home=" + home, "-Drocketmq.home.dir=" + home,
                "-Djava.io.tmpdir=" + tmp));
        args.addAll(jvmArgs);
        return PeerProcess.start(RocketMqServerMain.class, heap, PeerClassPath.distribution("rocketmq"), args,
                data.path().resolve(name).resolve("data"), flush);
    }

    /**
     * RocketMQ's client in a JVM of its own ({@link ClientProcess}) for the SYNC_FLUSH and the
     * ASYNC_FLUSH NameServers {@code nameServers}; it logs to {@code rocketmq.log.root} (by
     * default under the user's home): unless this JVM's properties chose, that is {@code logs}, at WARN.
     */
    static ClientProcess client(List<String> nameServers, Path logs, int producers, int consumers)
            throws IOException {
        List<String> spec = new ArrayList<>(List.of("rocketmq"));
        spec.addAll(nameServers);
        return ClientProcess.start(spec, producers, consumers, List.of(
                "-Drocketmq.log.root=" + System.getProperty("rocketmq.log.root", logs.toString()),
                "-Drocketmq.log.level=" + System.getProperty("rocketmq.log.level", "WARN")));
    }

    @Override
    public String name() {
        return "rocketmq";
    }

    @Override
    public String toString() {
        return "rocketmq sync " + syncFlush + ", async " + asyncFlush;
    }

    /** The client logs go to this peer's temporary directory ({@link #client}). */
    @Override
    public Workloads workloads(int producers, int consumers) throws IOException {
        return client(List.of("127.0.0.1:" + syncFlush.port(), "127.0.0.1:" + asyncFlush.port()),
                data.path().resolve("client-logs"), producers, consumers);
    }

    @Override
    public long liveHeapBytes() throws IOException {
        return syncFlush.liveHeapBytes();
    }

    @Override
    public long diskBytes() throws IOException {
        return DiskUsage.of(data.path().resolve("sync"));
    }

    @Override
    public long residentBytes() {
        return syncFlush.residentBytes();
    }

    @Override
    public List<PeerProcess> processes() {
        return List.of(syncFlush, asyncFlush);
    }

    @Override
    public List<Long> pids() {
        return List.of(syncFlush.pid(), asyncFlush.pid());
    }

    @Override
    public boolean isAlive() {
        return syncFlush.isAlive() && asyncFlush.isAlive();
    }

    @Override
    public void close() throws IOException {
        CompletableFuture<Void> async = CompletableFuture.runAsync(() -> {
            try {
                asyncFlush.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            syncFlush.close();
            async.join();
        } finally {
            data.close();
        }
    }
}
