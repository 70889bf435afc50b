package io.ramjet.bench.peer;

import io.ramjet.bench.Workloads;
import io.ramjet.bench.jms.JmsWorkloads;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.util.function.IntFunction;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** A JMS broker in one child JVM (Ramjet or Artemis), driven through {@link JmsWorkloads}. */
public final class JmsPeer implements Peer {

    private final String name;
    private final TemporaryDirectory data;
    private final PeerProcess process;
    private final IntFunction<ConnectionFactory> factory;

    private JmsPeer(String name, TemporaryDirectory data, PeerProcess process, IntFunction<ConnectionFactory> factory) {
        this.name = name;
        this.data = data;
        this.process = process;
        this.factory = factory;
    }

    /**
     * Ramjet's NameServer and broker ({@link RamjetServerMain}), reached by a {@code ramjet://}
     * URL; {@code segmentMiB} 0 keeps the standalone server's CommitLog segment size.
     */
    public static JmsPeer ramjet(String heap, int segmentMiB) throws IOException {
        return start("ramjet", RamjetServerMain.class, heap,
                port -> new RamjetConnectionFactory("ramjet://127.0.0.1:" + port),
                segmentMiB > 0 ? new String[] {Integer.toString(segmentMiB)} : new String[0]);
    }

    /**
     * Artemis ({@link ArtemisServerMain}) through its Core JMS client: durable sends block until
     * the journal has them, and a confirmation window lets asynchronous sends complete.
     */
    public static JmsPeer artemis(String heap) throws IOException {
        return start("artemis", ArtemisServerMain.class, heap, port -> {
            ActiveMQConnectionFactory f = new ActiveMQConnectionFactory(
                    "tcp://127.0.0.1:" + port + "?useEpoll=false&confirmationWindowSize=1048576");
            f.setBlockOnDurableSend(true);
            return f;
        }, new String[0]);
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
                    port -> new RamjetConnectionFactory("ramjets://127.0.0.1:" + port + "?trustStore="
                            + keys.trustStore() + "&trustStorePassword=" + TlsKeyPair.PASSWORD),
                    new String[] {Integer.toString(segmentMiB), keys.keyStore().toString(),
                            keys.trustStore().toString(), TlsKeyPair.PASSWORD});
        } catch (IOException | RuntimeException e) {
            data.close();
            throw e;
        }
    }

    /**
     * Artemis with TLS as its documentation configures it: an acceptor with {@code sslEnabled=true}
     * and a key store; its client with {@code sslEnabled=true} and a trust store.
     */
    public static JmsPeer artemisTls(String heap) throws IOException {
        TemporaryDirectory data = new TemporaryDirectory("artemis-tls-peer");
        try {
            TlsKeyPair keys = TlsKeyPair.generate(data.path());
            return start("artemis-tls", data, ArtemisServerMain.class, heap, port -> {
                ActiveMQConnectionFactory f = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + port
                        + "?useEpoll=false&confirmationWindowSize=1048576&sslEnabled=true&trustStorePath="
                        + keys.trustStore() + "&trustStorePassword=" + TlsKeyPair.PASSWORD + "&trustStoreType=PKCS12");
                f.setBlockOnDurableSend(true);
                return f;
            }, new String[] {"sslEnabled=true;keyStorePath=" + keys.keyStore() + ";keyStorePassword="
                    + TlsKeyPair.PASSWORD + ";keyStoreType=PKCS12"});
        } catch (IOException | RuntimeException e) {
            data.close();
            throw e;
        }
    }

    private static JmsPeer start(String name, Class<?> main, String heap, IntFunction<ConnectionFactory> factory,
                                 String[] extra) throws IOException {
        TemporaryDirectory data = new TemporaryDirectory(name + "-peer");
        try {
            return start(name, data, main, heap, factory, extra);
        } catch (IOException | RuntimeException e) {
            data.close();
            throw e;
        }
    }

    private static JmsPeer start(String name, TemporaryDirectory data, Class<?> main, String heap,
                                 IntFunction<ConnectionFactory> factory, String[] extra) throws IOException {
        return new JmsPeer(name, data, PeerProcess.start(main, heap, data.path().resolve("data"), extra), factory);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Workloads workloads(int producers, int consumers) {
        return new JmsWorkloads(factory.apply(process.port()), producers, consumers);
    }

    @Override
    public long liveHeapBytes() throws IOException {
        return process.liveHeapBytes();
    }

    @Override
    public long residentBytes() {
        return process.residentBytes();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws IOException {
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
