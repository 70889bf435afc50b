package io.ramjet.provider.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.tls.ClientTls;
import io.ramjet.protocol.remoting.tls.KeyMaterial;
import io.ramjet.protocol.remoting.tls.ServerTls;
import io.ramjet.protocol.remoting.tls.ServerTls.ClientAuthMode;
import io.ramjet.protocol.remoting.tls.TrustMaterial;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.remoting.RemotingServer;
import io.ramjet.server.config.RemotingServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS end to end through the JMS API, with certificates keytool makes for the test: a NameServer
 * and a broker on TLS ports (the broker registering over TLS), mutual TLS, and the refusals a
 * misconfigured client gets: fast and as a {@link JMSException}, never a hang.
 */
class TlsTest {

    private static final long TIMEOUT = 10_000;
    /** Shorter than any refusal may take: a refusal that waited for it would be a hang. */
    private static final long REQUEST_TIMEOUT = 4_000;

    @TempDir
    static Path dir;

    private static TestCertificates ca;
    private static TestCertificates.Identity server;
    private static TestCertificates.Identity alice;
    private static TestCertificates.Identity otherHost;
    private static final TlsServers servers = new TlsServers();
    private static NameServer tlsNameServer;
    private static NameServer mutualNameServer;
    private static NameServer plainNameServer;
    private static NameServer otherHostNameServer;

    @BeforeAll
    static void start() throws Exception {
        ca = TestCertificates.newCa(dir);
        server = ca.issue("server", "CN=localhost", "ip:127.0.0.1,dns:localhost");
        alice = ca.issue("alice", "CN=alice,O=Ramjet Test", null);
        otherHost = ca.issue("other", "CN=elsewhere.example", "dns:elsewhere.example");
        TrustMaterial trust = new TrustMaterial(ca.caPem(), null);

        tlsNameServer = servers.nameServer(ServerTls.of(KeyMaterial.keyStore(server.keyStore(), TestCertificates.PASSWORD)));
        tlsBroker("tls", tlsNameServer, ClientAuthMode.NONE);
        mutualNameServer = servers.nameServer(ServerTls.of(KeyMaterial.keyStore(server.keyStore(), TestCertificates.PASSWORD))
                .withClientAuth(ClientAuthMode.REQUIRED, trust));
        tlsBroker("mutual", mutualNameServer, ClientAuthMode.REQUIRED);
        plainNameServer = servers.nameServer(null);
        otherHostNameServer = servers.nameServer(ServerTls.of(KeyMaterial.keyStore(otherHost.keyStore(),
                TestCertificates.PASSWORD)));
    }

    /** A broker whose port has the server's PEM key material, registering with the NameServer over TLS. */
    private static void tlsBroker(String name, NameServer nameServer, ClientAuthMode clientAuth) throws Exception {
        BrokerConfigBuilder config = TlsServers.brokerConfig(dir.resolve(name), name, nameServer, server, ca.caPem(),
                clientAuth);
        if (clientAuth != ClientAuthMode.NONE) {
            // mutual TLS as the only login: alice's certificate proves her, through the JAAS certificate module
            Path usersBySubject = Files.writeString(dir.resolve(name + "-users-by-subject"),
                    "alice = CN=alice, O=Ramjet Test\n");
            Path jaas = Files.writeString(dir.resolve(name + "-login.config"), "ramjet {\n"
                    + "    io.ramjet.server.broker.security.CertificateLoginModule required usersBySubject=\""
                    + usersBySubject + "\";\n};\n");
            config.jaasConfigFile(jaas).allowAnonymous(false);
        }
        servers.broker(config);
    }

    @AfterAll
    static void stop() throws Exception {
        servers.close();
    }

    private static String trusting(NameServer nameServer) {
        return "ramjets://" + nameServer.address() + "?requestTimeout=" + REQUEST_TIMEOUT + "&trustStore=" + ca.caPem();
    }

    private static void roundTrip(RamjetConnectionFactory factory) throws JMSException {
        roundTrip(factory, null);
    }

    /** With a user, the connection logs in as that user with no password: the certificate is the proof. */
    private static void roundTrip(RamjetConnectionFactory factory, String user) throws JMSException {
        try (Connection connection = user == null ? factory.createConnection() : factory.createConnection(user, "")) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("tls-" + UUID.randomUUID());
            MessageConsumer consumer = session.createConsumer(queue);
            session.createProducer(queue).send(session.createTextMessage("over TLS"));
            TextMessage received = (TextMessage) consumer.receive(TIMEOUT);
            assertNotNull(received, "the message came back");
            assertEquals("over TLS", received.getText());
        }
    }

    /** Creating a connection fails, well before the request timeout, with a message containing {@code expected}. */
    private static void refusedQuickly(String url, String expected) {
        long begin = System.nanoTime();
        JMSException refused = assertThrows(JMSException.class, () -> new RamjetConnectionFactory(url)
                .createConnection().close());
        long millis = (System.nanoTime() - begin) / 1_000_000;
        assertTrue(millis < REQUEST_TIMEOUT, "refused after " + millis + " ms, not at once: " + refused);
        assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    }

    @Test
    void aMessageMakesTheRoundTripThroughATlsNameServerAndATlsBroker() throws JMSException {
        roundTrip(new RamjetConnectionFactory(trusting(tlsNameServer)));
    }

    @Test
    void theTlsOptionIsTheTlsScheme() throws JMSException {
        roundTrip(new RamjetConnectionFactory("ramjet://" + tlsNameServer.address() + "?tls=true&trustStore="
                + ca.caPem()));
    }

    @Test
    void aPlainClientOnATlsPortIsRefused() {
        refusedQuickly("ramjet://" + tlsNameServer.address() + "?requestTimeout=" + REQUEST_TIMEOUT, "a TLS port?");
    }

    @Test
    void aTlsClientOnAPlainPortIsRefused() {
        refusedQuickly(trusting(plainNameServer), "TLS handshake");
    }

    @Test
    void aCertificateForAnotherHostIsRefused() {
        refusedQuickly(trusting(otherHostNameServer), "TLS handshake");
    }

    @Test
    void aCertificateForAnotherHostIsAcceptedWhenHostnameVerificationIsOff() throws JMSException {
        new RamjetConnectionFactory(trusting(otherHostNameServer) + "&verifyHostname=false").createConnection()
                .close();
    }

    @Test
    void aServerSignedByAnUntrustedCaIsRefused() {
        refusedQuickly("ramjets://" + tlsNameServer.address() + "?requestTimeout=" + REQUEST_TIMEOUT, "TLS handshake");
    }

    @Test
    void mutualTlsRefusesAClientWithoutCertificate() {
        refusedQuickly(trusting(mutualNameServer), "closed");
    }

    @Test
    void mutualTlsAdmitsAClientWithACertificateFromAKeyStore() throws JMSException {
        roundTrip(new RamjetConnectionFactory(trusting(mutualNameServer) + "&keyStore=" + alice.keyStore()
                + "&keyPassword=" + TestCertificates.PASSWORD), "alice");
    }

    @Test
    void mutualTlsAdmitsAClientWithACertificateFromPemFiles() throws JMSException {
        roundTrip(new RamjetConnectionFactory(trusting(mutualNameServer) + "&certificate=" + alice.certificateChain()
                + "&privateKey=" + alice.privateKey()), "alice");
    }

    @Test
    void aVerifiedCertificateMappedToNoUserIsNotALogin() {
        assertThrows(JMSSecurityException.class, () -> roundTrip(new RamjetConnectionFactory(trusting(mutualNameServer)
                + "&keyStore=" + otherHost.keyStore() + "&keyPassword=" + TestCertificates.PASSWORD), "alice"));
    }

    @Test
    void aTlsOptionWithoutTlsIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new RamjetConnectionFactory("ramjet://" + tlsNameServer.address() + "?trustStore=" + ca.caPem()));
        assertTrue(refused.getMessage().contains("trustStore needs TLS"), refused.getMessage());
    }

    /** The subject of the certificate a client presented to a server asking for one optionally; empty for none. */
    private static Optional<X500Principal> peerSeenByTheServer(KeyMaterial clientKey) throws Exception {
        TrustMaterial trust = new TrustMaterial(ca.caPem(), null);
        CompletableFuture<Optional<X500Principal>> seen = new CompletableFuture<>();
        try (RemotingServer remoting = new RemotingServer(RemotingServerConfig.onPort(0).withTls(
                ServerTls.of(KeyMaterial.keyStore(server.keyStore(), TestCertificates.PASSWORD))
                        .withClientAuth(ClientAuthMode.OPTIONAL, trust)))) {
            remoting.registerProcessor(CommandCode.LIST_BROKERS, (connection, request) -> {
                seen.complete(connection.peerPrincipal());
                return request.reply(new BrokerList(List.of()));
            }, Runnable::run);
            remoting.start();
            try (RemotingClient client = new RemotingClient(RemotingClientConfig.defaults().withTls(
                    ClientTls.defaults().withTrust(trust).withKey(clientKey)))) {
                client.invokeSync(remoting.address(), Frame.request(CommandCode.LIST_BROKERS, null),
                        Duration.ofMillis(TIMEOUT)).body().release();
            }
            return seen.get(TIMEOUT, TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void theServerSeesTheSubjectOfAVerifiedClientCertificate() throws Exception {
        assertEquals(Optional.of(new X500Principal("CN=alice,O=Ramjet Test")),
                peerSeenByTheServer(KeyMaterial.pem(alice.certificateChain(), alice.privateKey(), null)));
    }

    @Test
    void theServerSeesNoSubjectWhenTheClientPresentsNoCertificate() throws Exception {
        assertEquals(Optional.empty(), peerSeenByTheServer(null));
    }
}
