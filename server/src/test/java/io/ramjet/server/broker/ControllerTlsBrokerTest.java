package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.controller.ControllerConfig;
import io.ramjet.controller.ControllerGroup;
import io.ramjet.controller.ControllerNode;
import io.ramjet.controller.ControllerPeer;
import io.ramjet.controller.ControllerTls;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker in controller mode reaches controllers on mutual TLS with its
 * {@code controllerTls*} keys, and without them is refused: one real controller on 127.0.0.1,
 * a certificate made by the JDK's {@code keytool} for 127.0.0.1 that is its own trust anchor.
 */
class ControllerTlsBrokerTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;

    private static ControllerTls tls;
    private static ControllerGroup group;
    private static ControllerNode controller;

    @BeforeAll
    static void startControllerOnMutualTls() throws Exception {
        Path store = dir.resolve("member.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2",
                "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS), "keytool finished");
        assertEquals(0, keytool.exitValue(), output);
        KeyStore keys = KeyStore.getInstance(store.toFile(), PASSWORD.toCharArray());
        Path certificate = Files.writeString(dir.resolve("member.pem"),
                pem("CERTIFICATE", keys.getCertificate("member").getEncoded()));
        Path key = Files.writeString(dir.resolve("member-key.pem"),
                pem("PRIVATE KEY", keys.getKey("member", PASSWORD.toCharArray()).getEncoded()));
        tls = new ControllerTls(certificate, key, certificate);
        group = new ControllerGroup(List.of(new ControllerPeer("n0", "127.0.0.1", ControllerCluster.freePort())));
        controller = ControllerNode.start(new ControllerConfig("n0", dir.resolve("n0"), group,
                ControllerCluster.BROKER_TIMEOUT, false, Duration.ofMillis(500), 10_000, 8L << 20,
                BrokerTestSupport.CLUSTER_SECRET, ControllerCluster.BROKER_TIMEOUT, tls));
    }

    @AfterAll
    static void stop() throws Exception {
        if (controller != null) {
            controller.close();
        }
    }

    @Test
    void aBrokerPresentingTheClusterCertificateBecomesMaster() throws Exception {
        BrokerConfig config = broker(1).controllerTlsCertificate(tls.certificateChain())
                .controllerTlsPrivateKey(tls.privateKey()).controllerTlsTrustStore(tls.trusted()).build();
        try (ControlledBroker broker = new ControlledBroker(config)) {
            broker.start();
            assertTrue(broker.role().master(), broker.role().toString());
        }
    }

    @Test
    void aBrokerWithoutTheControllersTlsIsRefused() {
        try (ControlledBroker broker = new ControlledBroker(broker(2).build())) {
            assertThrows(IllegalStateException.class, broker::start);
        }
    }

    private static BrokerConfigBuilder broker(long id) {
        BrokerConfigBuilder builder = BrokerConfig.builder(dir.resolve("b" + id)).port(0).nameServers(List.of())
                .queuesPerDestination(2).brokerName("g" + id).brokerId(1).controllerAddresses(group.toString())
                .clusterSecret(BrokerTestSupport.CLUSTER_SECRET).controllerHeartbeat(ControllerCluster.HEARTBEAT)
                .controllerTimeout(ControllerCluster.BROKER_TIMEOUT).controllerRegisterPatience(Duration.ofSeconds(1));
        builder.store().segmentSize(4 << 20).minFreeSpace(0);
        return builder;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
