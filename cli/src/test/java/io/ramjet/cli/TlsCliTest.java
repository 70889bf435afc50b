package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ramjet.protocol.remoting.tls.KeyMaterial;
import io.ramjet.protocol.remoting.tls.ServerTls;
import io.ramjet.protocol.remoting.tls.ServerTls.ClientAuthMode;
import io.ramjet.protocol.remoting.tls.TrustMaterial;
import io.ramjet.provider.tls.TestCertificates;
import io.ramjet.provider.tls.TlsServers;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.namesrv.NameServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every kind of command (admin protocol, JMS) against a deployment with TLS on the NameServer's
 * and the broker's ports, and against one that requires mutual TLS: reached with the JMS
 * client's URL options, refused without them. Certificates are made by keytool at test time.
 */
class TlsCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN_PASSWORD = "s3cret";

    @TempDir
    static Path dir;

    private static TestCertificates ca;
    private static TestCertificates.Identity admin;
    private static final TlsServers servers = new TlsServers();
    private static NameServer tlsNameServer;
    private static NameServer mutualNameServer;

    @BeforeAll
    static void start() throws Exception {
        ca = TestCertificates.newCa(dir);
        TestCertificates.Identity server = ca.issue("server", "CN=localhost", "ip:127.0.0.1,dns:localhost");
        admin = ca.issue("admin", "CN=admin,O=Ramjet Test", null);
        Path users = Files.writeString(dir.resolve("users.properties"),
                "ops = " + PasswordHash.of(ADMIN_PASSWORD.toCharArray()).encoded() + "\n");

        ServerTls serverTls = ServerTls.of(KeyMaterial.keyStore(server.keyStore(), TestCertificates.PASSWORD));
        tlsNameServer = servers.nameServer(serverTls);
        servers.broker(TlsServers.brokerConfig(dir.resolve("tls"), "tls", tlsNameServer, server, ca.caPem(),
                ClientAuthMode.NONE).queuesPerDestination(1).usersFile(users).allowAnonymous(false));
        mutualNameServer = servers.nameServer(serverTls.withClientAuth(ClientAuthMode.REQUIRED,
                new TrustMaterial(ca.caPem(), null)));
        servers.broker(TlsServers.brokerConfig(dir.resolve("mutual"), "mutual", mutualNameServer, server, ca.caPem(),
                ClientAuthMode.REQUIRED).queuesPerDestination(1));
    }

    @AfterAll
    static void stop() throws Exception {
        servers.close();
    }

    private static String trusting(NameServer nameServer) {
        return "ramjets://" + nameServer.address() + "?trustStore=" + ca.caPem();
    }

    private static String presentingTheAdminCertificate() {
        return trusting(mutualNameServer) + "&keyStore=" + admin.keyStore() + "&keyPassword="
                + TestCertificates.PASSWORD;
    }

    @Test
    void everyKindOfCommandWorksOverTls() {
        String url = trusting(tlsNameServer);
        everyKindOfCommandWorks(url, "--user", "ops", "--password", ADMIN_PASSWORD);
    }

    @Test
    void everyKindOfCommandWorksOverMutualTlsWithTheClientsCertificate() {
        everyKindOfCommandWorks(presentingTheAdminCertificate());
    }

    @Test
    void aPlainCommandLineIsRefusedByATlsDeployment() {
        String plain = "ramjet://" + tlsNameServer.address();
        assertRefused("ADMIN_DESTINATIONS", "queue", "stat", "--url", plain, "--user", "ops", "--password",
                ADMIN_PASSWORD);
        assertRefused("producer", "producer", "-d", "orders", "--url", plain, "--user", "ops", "--password",
                ADMIN_PASSWORD);
    }

    @Test
    void aCommandLineWithoutACertificateIsRefusedByMutualTls() {
        String url = trusting(mutualNameServer);
        assertRefused("queue stat", "queue", "stat", "--url", url);
        assertRefused("broker", "broker", "--url", url);
        assertRefused("producer", "producer", "-d", "orders", "--url", url);
        assertRefused("browse", "browse", "-q", "orders", "--url", url);
    }

    @Test
    void aMalformedTlsOptionIsAUsageErrorNamingIt() {
        Run run = run("queue", "stat", "--url", "ramjet://" + tlsNameServer.address() + "?trustStore=/nowhere");
        assertEquals(1, run.exit, run.toString());
        assertTrue(run.err.contains("trustStore needs TLS"), run.toString());
    }

    /** Admin-protocol and JMS commands, each through the NameServer to the broker, as the {@code login} options say. */
    private static void everyKindOfCommandWorks(String url, String... login) {
        String queue = "tls-orders-" + System.nanoTime();
        assertOk(run(with(login, "producer", "-d", queue, "-n", "3", "--url", url)));
        Run stat = assertOk(run(with(login, "queue", "stat", "--name", queue, "--json", "--url", url)));
        assertEquals(3, json(stat).get(0).get("ready").asInt(), stat.toString());
        assertOk(run(with(login, "broker", "--url", url)));
        Run browse = assertOk(run(with(login, "browse", "-q", queue, "--json", "--url", url)));
        assertTrue(browse.out.contains("message 1"), browse.toString());
        Run consumed = assertOk(run(with(login, "consumer", "-d", queue, "-n", "3", "--json", "--url", url)));
        assertTrue(consumed.out.contains("message 2"), consumed.toString());
        Run perf = assertOk(run(with(login, "perf", "-d", queue + "-perf", "-n", "50", "--json", "--url", url)));
        assertEquals(50, json(perf).get("received").asInt(), perf.toString());
    }

    private static JsonNode json(Run run) {
        try {
            return JSON.readTree(run.out);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + run, e);
        }
    }

    private static String[] with(String[] login, String... args) {
        List<String> line = new ArrayList<>(List.of(args));
        line.addAll(List.of(login));
        return line.toArray(String[]::new);
    }

    private static Run assertOk(Run run) {
        assertEquals(0, run.exit, run.toString());
        return run;
    }

    private static void assertRefused(String what, String... args) {
        Run run = run(args);
        assertEquals(1, run.exit, what + ": " + run);
    }

    private record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nout: " + out + "\nerr: " + err;
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = RamjetAdmin.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }
}
