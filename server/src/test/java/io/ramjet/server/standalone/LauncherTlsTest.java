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

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * flags that do not make a key refuse the start in one line. The key pair is made at test time
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
                "-genkeypair", "-alias", "namesrv", "-keyalg", "EC", "-groupname", "secp256r1",
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

    private static NameServerClient client(RemotingClient remoting, NameServer nameServer) {
        return new NameServerClient(remoting, List.of(nameServer.address()), Duration.ofSeconds(5));
    }
}
