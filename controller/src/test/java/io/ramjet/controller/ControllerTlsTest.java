package io.ramjet.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller group on mutual TLS hears only holders of a certificate its CA signed. Three real
 * Ratis controllers in this JVM on 127.0.0.1, certificates made by keytool at test time: a member
 * with the cluster's certificate registers a broker and heartbeats; a client without a certificate,
 * or with one another CA signed, is refused, and so is a raw connection to a controller's port (the
 * one port on which Raft's votes, appends and snapshots arrive) that does not present a trusted
 * certificate: it never gets past the TLS handshake to speak HTTP/2, the gRPC transport's framing.
 */
class ControllerTlsTest {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /** HTTP/2's client connection preface and an empty SETTINGS frame. */
    private static final byte[] HTTP2_PREFACE = concat("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
            new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});

    @TempDir
    static Path dir;

    private static ControllerGroup group;
    private static ControllerTls tls;
    private static TestCertificates.Identity member;
    private static TestCertificates.Identity rogue;
    private static Path ca;
    private static final ControllerNode[] nodes = new ControllerNode[3];

    @BeforeAll
    static void startGroupOnMutualTls() throws Exception {
        TestCertificates cluster = TestCertificates.newCa(java.nio.file.Files.createDirectories(dir.resolve("ca")));
        member = cluster.issue("member", "CN=controller", "ip:127.0.0.1,dns:localhost");
        ca = cluster.caPem();
        rogue = TestCertificates.selfSigned(java.nio.file.Files.createDirectories(dir.resolve("rogue")), "rogue",
                "CN=controller", "ip:127.0.0.1,dns:localhost");
        tls = new ControllerTls(member.certificateChain(), member.privateKey(), ca);
        group = FreePorts.groupOf(3);
        for (int i = 0; i < nodes.length; i++) {
            String id = "n" + i;
            nodes[i] = ControllerNode.start(new ControllerConfig(id, dir.resolve(id), group, Duration.ofSeconds(3),
                    false, Duration.ofMillis(500), 10_000, 8L << 20, TestClusterSecret.SECRET, Duration.ofSeconds(3),
                    tls));
        }
    }

    @AfterAll
    static void stop() throws IOException {
        for (ControllerNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }

    @Test
    void aTrustedMemberElectsALeaderRegistersAndHeartbeats() throws Exception {
        try (ControllerClient client = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT, tls)) {
            ControllerReply registered = await("registered").atMost(SETTLE).ignoreExceptions()
                    .until(() -> client.register("g1", 1, "127.0.0.1:1", 100), ControllerReply::ok);
            assertEquals(1, registered.info().masterId());
            assertEquals(1, Arrays.stream(nodes).filter(ControllerNode::isLeader).count());
            ControllerReply heartbeat = client.heartbeat("g1", 1, 120);
            assertTrue(heartbeat.ok(), heartbeat.toString());
            assertEquals(1, heartbeat.info().masterId());
        }
        for (ControllerPeer peer : group.peers()) {
            assertTrue(speaksHttp2(peer, keyManagers(member.keyStore())), peer + " serves a trusted member");
        }
    }

    @Test
    void aClientWithoutACertificateIsRefused() throws Exception {
        try (ControllerClient plain = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT)) {
            assertThrows(ControllerUnavailableException.class, () -> plain.replicaInfo("g1"));
        }
        for (ControllerPeer peer : group.peers()) {
            assertTrue(speaksHttp2(peer, keyManagers(member.keyStore())), peer + " serves a trusted member");
            assertRefused(peer, null);
        }
    }

    @Test
    void aCertificateTheGroupDoesNotTrustIsRefused() throws Exception {
        // the rogue (self-signed) trusts the cluster's CA, so it would accept the controllers; they must not accept it
        ControllerTls untrusted = new ControllerTls(rogue.certificateChain(), rogue.privateKey(), ca);
        try (ControllerClient client = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT,
                untrusted)) {
            assertThrows(ControllerUnavailableException.class, () -> client.replicaInfo("g1"));
            assertThrows(ControllerUnavailableException.class, () -> client.register("g1", 66, "evil:1", 1 << 30));
        }
        for (ControllerPeer peer : group.peers()) {
            assertTrue(speaksHttp2(peer, keyManagers(member.keyStore())), peer + " serves a trusted member");
            assertRefused(peer, keyManagers(rogue.keyStore()));
        }
    }

    /**
     * On gRPC as on Netty the controllers refuse Ratis's administrative requests, even from a
     * holder of a trusted certificate: the group's membership and leadership are its configuration.
     */
    @Test
    void ratisAdministrationIsRefusedOverTlsToo() throws Exception {
        RaftGroup raftGroup = group.raftGroup();
        RaftPeer target = raftGroup.getPeers().iterator().next();
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(2, TimeUnit.SECONDS));
        try (RaftClient holder = RaftClient.newBuilder().setProperties(properties).setParameters(tls.parameters())
                .setRaftGroup(raftGroup).setRetryPolicy(RetryPolicies.noRetry()).build()) {
            RaftClientReply info = assertDoesNotThrowOrRefused(
                    () -> holder.getGroupManagementApi(target.getId()).info(raftGroup.getGroupId()));
            assertTrue(info == null || !info.isSuccess(), "group info answered: " + info);
            RaftClientReply removal = assertDoesNotThrowOrRefused(() -> holder.getGroupManagementApi(target.getId())
                    .remove(raftGroup.getGroupId(), true, false));
            assertTrue(removal == null || !removal.isSuccess(), "group removal answered: " + removal);
        }
        assertTrue(java.nio.file.Files.isDirectory(dir.resolve(target.getId().toString())
                .resolve(raftGroup.getGroupId().getUuid().toString())), target.getId() + "'s group directory");
        try (ControllerClient client = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT, tls)) {
            await("the group still serves").atMost(SETTLE).ignoreExceptions()
                    .until(() -> client.replicaInfo("g1"), reply -> reply != null);
        }
    }

    /**
     * The reply, or null when the request failed: refused, or (group removal on gRPC, whose
     * service does not pass the refusal back) left unanswered until its deadline.
     */
    private static RaftClientReply assertDoesNotThrowOrRefused(AdminCall call) {
        try {
            return call.call();
        } catch (IOException | RuntimeException refused) {
            return null;
        }
    }

    private interface AdminCall {
        RaftClientReply call() throws IOException;
    }

    private static void assertRefused(ControllerPeer peer, KeyManager[] presented) throws Exception {
        try {
            if (speaksHttp2(peer, presented)) {
                fail(peer + " spoke HTTP/2 to a connection without a trusted certificate");
            }
        } catch (SocketTimeoutException e) {
            fail(peer + " neither refused nor served an untrusted connection", e);
        } catch (IOException expected) {
            // the handshake failed, or the controller closed the connection with an alert
        }
    }

    /**
     * Connects to {@code peer} with TLS and ALPN h2 as a gRPC client does, presenting
     * {@code presented} (none when null), sends HTTP/2's preface and reads the controller's first
     * frame: true when the controller sent one, false when it closed the connection.
     */
    private static boolean speaksHttp2(ControllerPeer peer, KeyManager[] presented) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        try (InputStream in = java.nio.file.Files.newInputStream(ca)) {
            trusted.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in));
        }
        trust.init(trusted);
        context.init(presented, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(new java.net.InetSocketAddress(peer.host(), peer.port()), 2_000);
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(5));
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            OutputStream out = socket.getOutputStream();
            out.write(HTTP2_PREFACE);
            out.flush();
            byte[] frameHeader = socket.getInputStream().readNBytes(9);
            // a SETTINGS frame (type 4) is the server's connection preface
            return frameHeader.length == 9 && frameHeader[3] == 4;
        }
    }

    private static KeyManager[] keyManagers(Path keyStore) throws Exception {
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(KeyStore.getInstance(keyStore.toFile(), TestCertificates.PASSWORD.toCharArray()),
                TestCertificates.PASSWORD.toCharArray());
        return factory.getKeyManagers();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
