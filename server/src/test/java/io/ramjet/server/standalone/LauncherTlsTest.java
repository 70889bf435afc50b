package io.ramjet.server.standalone;

import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.tls.ClientTls;
import io.ramjet.protocol.remoting.tls.TrustMaterial;
import io.ramjet.server.namesrv.NameServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's {@code --tls-*} flags of {@code namesrv}: a key store given by flag makes the
 * port TLS-only, which a client trusting the key's certificate reaches and a plain one does not;
 * flags that do not make a key refuse the start in one line; the port accepts forward-secret AEAD
 * suites only, or what {@code --tls-protocols} and {@code --tls-cipher-suites} say. The key pair is made at test time
 * by the JDK's {@code keytool}, self-signed for 127.0.0.1.
 */
class LauncherTlsTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;

    private static Path keyStore;

    @BeforeAll
    static void keyPair() throws Exception {
        keyStore = dir.resolve("namesrv.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "namesrv", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2",
                "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS), "keytool finished");
        assertEquals(0, keytool.exitValue(), output);
    }

    @Test
    void aKeyStoreFlagMakesTheNameServerPortTlsOnly() throws Exception {
        Launcher.NameServerCommand command = new Launcher.NameServerCommand();
        new CommandLine(command).parseArgs("-p", "0", "--tls-key-store", keyStore.toString(),
                "--tls-key-password", PASSWORD);
        try (NameServer nameServer = command.start()) {
            ClientTls trusting = ClientTls.defaults().withTrust(new TrustMaterial(keyStore, PASSWORD));
            try (RemotingClient tls = new RemotingClient(RemotingClientConfig.defaults().withTls(trusting))) {
                assertEquals(List.of(), client(tls, nameServer).listBrokers().get(10, TimeUnit.SECONDS),
                        "a TLS client trusting the certificate is served");
            }
            try (RemotingClient plain = new RemotingClient(RemotingClientConfig.defaults())) {
                assertThrows(ExecutionException.class,
                        () -> client(plain, nameServer).listBrokers().get(10, TimeUnit.SECONDS),
                        "a plain client is not served on a TLS port");
            }
        }
    }

    @Test
    void aPrivateKeyWithoutItsCertificateRefusesTheStartInOneLine() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = Launcher.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        assertEquals(Launcher.REFUSED, commandLine.execute("namesrv", "-p", "0", "--tls-private-key",
                dir.resolve("key.pem").toString()));
        String line = err.toString().strip();
        assertTrue(line.startsWith("ramjet-server namesrv: TLS options refused: "), line);
        assertEquals(1, line.lines().count(), line);
    }

    @Test
    void aStandaloneServerWithASelfSignedKeyRegistersItsBrokerWithItsOwnNameServer() throws Exception {
        Path config = Files.writeString(dir.resolve("standalone-tls.properties"), "queues=orders\n"
                + "tlsKeyStore=" + keyStore + "\ntlsKeyPassword=" + PASSWORD + "\n");
        Launcher.Standalone command = new Launcher.Standalone();
        new CommandLine(command).parseArgs("-c", config.toString(), "--data-dir", dir.resolve("standalone-data")
                .toString(), "--port", "0", "--namesrv-port", "0");
        List<AutoCloseable> parts = command.start();
        ClientTls trusting = ClientTls.defaults().withTrust(new TrustMaterial(keyStore, PASSWORD));
        try (RemotingClient tls = new RemotingClient(RemotingClientConfig.defaults().withTls(trusting))) {
            NameServerClient client = client(tls, (NameServer) parts.get(0));
            await().atMost(Duration.ofSeconds(15)).until(() -> client.listBrokers().get(5, TimeUnit.SECONDS).size() == 1);
        } finally {
            for (int i = parts.size() - 1; i >= 0; i--) {
                parts.get(i).close();
            }
        }
    }

    @Test
    void theNameServerPortAcceptsForwardSecretAeadSuitesOnlyUnlessItsFlagsSayOtherwise() throws Exception {
        Launcher.NameServerCommand defaults = new Launcher.NameServerCommand();
        new CommandLine(defaults).parseArgs("-p", "0", "--tls-key-store", keyStore.toString(),
                "--tls-key-password", PASSWORD);
        try (NameServer nameServer = defaults.start()) {
            for (String weak : List.of("TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA",
                    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA")) {
                assertThrows(IOException.class, () -> handshake(nameServer, "TLSv1.2", weak), weak);
            }
            assertEquals("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                    handshake(nameServer, "TLSv1.2", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"));
        }
        Launcher.NameServerCommand narrowed = new Launcher.NameServerCommand();
        new CommandLine(narrowed).parseArgs("-p", "0", "--tls-key-store", keyStore.toString(),
                "--tls-key-password", PASSWORD, "--tls-protocols", "TLSv1.2",
                "--tls-cipher-suites", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");
        try (NameServer nameServer = narrowed.start()) {
            assertEquals("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                    handshake(nameServer, "TLSv1.2", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"));
            assertThrows(IOException.class, () -> handshake(nameServer, "TLSv1.2",
                    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"), "a default suite left out by --tls-cipher-suites");
            assertThrows(IOException.class, () -> handshake(nameServer, "TLSv1.3", "TLS_AES_128_GCM_SHA256"),
                    "TLSv1.3 left out by --tls-protocols");
        }
    }

    /** The suite the handshake with the NameServer settled on, offering only {@code suite} over {@code protocol}. */
    private static String handshake(NameServer nameServer, String protocol, String suite) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            trusted.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1",
                nameServer.port())) {
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(new String[] {protocol});
            socket.setEnabledCipherSuites(new String[] {suite});
            socket.startHandshake();
            return socket.getSession().getCipherSuite();
        }
    }

    private static NameServerClient client(RemotingClient remoting, NameServer nameServer) {
        return new NameServerClient(remoting, List.of(nameServer.address()), Duration.ofSeconds(5));
    }
}
