package io.ramjet.bench.peer;

import io.ramjet.bench.jms.JmsWorkloads;
import io.ramjet.bench.workload.Workloads;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/** A JMS broker in one child JVM (Ramjet or Artemis), driven through {@link JmsWorkloads}. */
public final class JmsPeer implements Peer {

    private final String name;
    private final TemporaryDirectory data;
    private final PeerProcess process;
    private final IntFunction<JmsClient> client;
    /** Scrapes the peer's metrics while it runs; null for a peer without them. */
    private final MetricsScraper scraper;

    private JmsPeer(String name, TemporaryDirectory data, PeerProcess process, IntFunction<JmsClient> client,
                    MetricsScraper scraper) {
        this.name = name;
        this.data = data;
        this.process = process;
        this.client = client;
        this.scraper = scraper;
    }

    /**
     * Ramjet's NameServer and broker ({@link RamjetServerMain}), reached by a {@code ramjet://}
     * URL; {@code segmentMiB} 0 keeps the standalone server's CommitLog segment size.
     */
    public static JmsPeer ramjet(String heap, int segmentMiB) throws IOException {
        return start("ramjet", RamjetServerMain.class, heap,
                port -> JmsClient.ramjet("ramjet://127.0.0.1:" + port),
                PeerClassPath.distribution("ramjet"), segmentMiB > 0 ? new String[] {Integer.toString(segmentMiB)} : new String[0]);
    }

    /**
     * {@link #ramjet} with its broker's metrics on ({@link RamjetServerMain#METRICS_PORT}), scraped
     * every second as Prometheus would for as long as the peer runs: beside the ramjet peer in one
     * run, what metrics cost.
     */
    public static JmsPeer ramjetMetrics(String heap, int segmentMiB) throws IOException {
        int metricsPort = PeerProcess.freePort();
        TemporaryDirectory data = new TemporaryDirectory("ramjet-metrics-peer");
        try {
            PeerProcess process = PeerProcess.start(RamjetServerMain.class, heap, PeerClassPath.distribution("ramjet"),
                    List.of("-D" + RamjetServerMain.METRICS_PORT + "=" + metricsPort), data.path().resolve("data"),
                    segmentMiB > 0 ? new String[] {Integer.toString(segmentMiB)} : new String[0]);
            MetricsScraper scraper = MetricsScraper.start(
                    URI.create("http://127.0.0.1:" + metricsPort + "/metrics"), Duration.ofSeconds(1));
            return new JmsPeer("ramjet-metrics", data, process,
                    port -> JmsClient.ramjet("ramjet://127.0.0.1:" + port), scraper);
        } catch (IOException | RuntimeException e) {
            data.close();
            throw e;
        }
    }

    /**
     * Artemis ({@link ArtemisServerMain}) on its own Netty, through its Core JMS client: durable
     * sends block until the journal has them. Asynchronous sends complete when the broker
     * confirms them, once per confirmation window of bytes: a window of a quarter of the bytes
     * the benchmark lets a producer have unconfirmed ({@code sendWindowBytes}) keeps four
     * confirmations in flight, where a window as large as the send window would make the
     * producer stop and wait for each one. The client is on epoll ({@code useEpoll=true}, its
     * default), as Ramjet's client is: it runs in a JVM of its own on Artemis's Netty
     * ({@link ClientProcess}), where epoll loads. A positive
     * {@code bufferTimeoutNanos} replaces the journal buffer timeout the peer would measure.
     */
    public static JmsPeer artemis(String heap, long sendWindowBytes, long bufferTimeoutNanos) throws IOException {
        long confirmationWindow = artemisConfirmationWindow(sendWindowBytes);
        return start("artemis", ArtemisServerMain.class, heap,
                port -> JmsClient.artemis("tcp://127.0.0.1:" + port + "?useEpoll=true", confirmationWindow),
                PeerClassPath.distribution(),
                bufferTimeoutNanos > 0 ? new String[] {Long.toString(bufferTimeoutNanos)} : new String[0]);
    }

    /**
     * Ramjet with TLS on its NameServer and broker ports (a self-signed {@link TlsKeyPair}), the
     * broker registering over TLS, reached by a {@code ramjets://} URL that verifies the host.
     */
    public static JmsPeer ramjetTls(String heap, int segmentMiB) throws IOException {
        TemporaryDirectory data = new TemporaryDirectory("ramjet-tls-peer");
        try {
            TlsKeyPair keys = TlsKeyPair.generate(data.path());
            return start("ramjet-tls", data, RamjetServerMain.class, heap,
                    port -> JmsClient.ramjet("ramjets://127.0.0.1:" + port + "?trustStore="
                            + keys.trustStore() + "&trustStorePassword=" + TlsKeyPair.PASSWORD),
                    PeerClassPath.distribution("ramjet"), new String[] {Integer.toString(segmentMiB), keys.keyStore().toString(),
                            keys.trustStore().toString(), TlsKeyPair.PASSWORD});
        } catch (IOException | RuntimeException e) {
            data.close();
            throw e;
        }
    }

    /**
     * {@link #artemis} with TLS as Artemis's documentation configures it: the acceptor with
     * {@code sslEnabled=true} and a key store, the client with {@code sslEnabled=true} and a trust store.
     */
    public static JmsPeer artemisTls(String heap, long sendWindowBytes, long bufferTimeoutNanos) throws IOException {
        long confirmationWindow = artemisConfirmationWindow(sendWindowBytes);
        TemporaryDirectory data = new TemporaryDirectory("artemis-tls-peer");
        try {
            TlsKeyPair keys = TlsKeyPair.generate(data.path());
            return start("artemis-tls", data, ArtemisServerMain.class, heap,
                    port -> JmsClient.artemis("tcp://127.0.0.1:" + port + "?useEpoll=false&sslEnabled=true"
                            + "&trustStorePath=" + keys.trustStore() + "&trustStorePassword=" + TlsKeyPair.PASSWORD
                            + "&trustStoreType=PKCS12", confirmationWindow),
                    PeerClassPath.distribution(), new String[] {Long.toString(Math.max(0, bufferTimeoutNanos)),
                    "sslEnabled=true;keyStorePath=" + keys.keyStore() + ";keyStorePassword=" + TlsKeyPair.PASSWORD
                            + ";keyStoreType=PKCS12"});
        } catch (IOException | RuntimeException e) {
            data.close();
            throw e;
        }
    }

    /** A quarter of the bytes a producer may have unconfirmed, at least 64 KiB: see {@link #artemis}. */
    static long artemisConfirmationWindow(long sendWindowBytes) {
        return Math.max(64 << 10, sendWindowBytes / 4);
    }

    private static JmsPeer start(String name, Class<?> main, String heap, IntFunction<JmsClient> client,
                                 PeerClassPath peerClassPath, String[] extra) throws IOException {
        TemporaryDirectory data = new TemporaryDirectory(name + "-peer");
        try {
            return start(name, data, main, heap, client, peerClassPath, extra);
        } catch (IOException | RuntimeException e) {
            data.close();
            throw e;
        }
    }

    private static JmsPeer start(String name, TemporaryDirectory data, Class<?> main, String heap,
                                 IntFunction<JmsClient> client, PeerClassPath peerClassPath, String[] extra)
            throws IOException {
        List<String> jvmArgs = main == ArtemisServerMain.class ? ArtemisNative.jvmArgs(data.path()) : List.of();
        return new JmsPeer(name, data, PeerProcess.start(main, heap, peerClassPath, jvmArgs,
                data.path().resolve("data"), extra), client, null);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Workloads workloads(int producers, int consumers) throws IOException {
        return client.apply(process.port()).process(producers, consumers);
    }

    /** The broker JVM's settings, then the client's. */
    @Override
    public Map<String, String> settings() {
        Map<String, String> all = new LinkedHashMap<>(Peer.super.settings());
        all.putAll(client.apply(process.port()).settings());
        return all;
    }

    @Override
    public long liveHeapBytes() throws IOException {
        return process.liveHeapBytes();
    }

    @Override
    public long diskBytes() throws IOException {
        return DiskUsage.of(data.path().resolve("data"));
    }

    @Override
    public long residentBytes() {
        return process.residentBytes();
    }

    @Override
    public List<PeerProcess> processes() {
        return List.of(process);
    }

    @Override
    public List<Long> pids() {
        return List.of(process.pid());
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws IOException {
        if (scraper != null) {
            scraper.close();
        }
        try {
            process.close();
        } finally {
            data.close();
        }
    }

    @Override
    public String toString() {
        return name + " " + process;
    }
}
