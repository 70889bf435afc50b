package io.ramjet.provider.tls;

import io.ramjet.protocol.remoting.tls.ServerTls;
import io.ramjet.protocol.remoting.tls.ServerTls.ClientAuthMode;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * NameServers and brokers of a TLS test on ephemeral ports, stopped together (brokers first) by
 * {@link #close()}. Not thread-safe.
 */
public final class TlsServers implements AutoCloseable {

    private final List<AutoCloseable> started = new ArrayList<>();

    /** A started NameServer whose port has {@code tls}, plain when null. */
    public NameServer nameServer(ServerTls tls) throws Exception {
        NameServerConfig config = NameServerConfig.defaults().withPort(0);
        NameServer nameServer = new NameServer(config.withRemoting(config.remoting().withTls(tls)));
        nameServer.start();
        started.add(nameServer);
        return nameServer;
    }

    /**
     * The configuration of a broker in {@code dataDir} whose port presents {@code key}'s PEM
     * material, trusting {@code ca} for client certificates, registering with {@code nameServer}
     * over TLS.
     */
    public static BrokerConfigBuilder brokerConfig(Path dataDir, String name, NameServer nameServer,
                                                    TestCertificates.Identity key, Path ca, ClientAuthMode clientAuth) {
        BrokerConfigBuilder config = BrokerConfig.builder(dataDir).port(0).brokerName(name)
                .nameServers(List.of(nameServer.address()));
        config.store().segmentSize(16 << 20);
        config.tls().certificate(key.certificateChain()).privateKey(key.privateKey()).clientAuth(clientAuth)
                .trustStore(ca).outbound(true);
        return config;
    }

    /** Starts a broker, stopped before every NameServer. */
    public Broker broker(BrokerConfigBuilder config) throws Exception {
        Broker broker = new Broker(config.build());
        broker.start();
        started.add(0, broker);
        return broker;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable part : started) {
            part.close();
        }
    }
}
