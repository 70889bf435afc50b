package io.ramjet.server.standalone;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.remoting.NameServerRegistrations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LauncherTest {

    @Test
    void propertiesOverrideTheDefaults() {
        Properties p = new Properties();
        p.setProperty("brokerName", "broker-b");
        p.setProperty("nameServers", "10.0.0.1:9876, 10.0.0.2:9876");
        p.setProperty("heartbeatIntervalMs", "1500");
        BrokerConfig c = BrokerProperties.parse(p, Path.of("data"));
        assertEquals("broker-b", c.brokerName());
        assertEquals(List.of("10.0.0.1:9876", "10.0.0.2:9876"), c.nameServers());
        assertEquals(Duration.ofMillis(1500), c.heartbeatInterval());
        assertEquals(BrokerConfig.DEFAULT_PORT, c.port());
    }

    @Test
    void storageAndDestinationKeysReachTheStoreAndTheBroker() {
        Properties p = new Properties();
        p.setProperty("segmentSize", "64m");
        p.setProperty("minFreeSpace", "512K");
        p.setProperty("queues", "orders, invoices");
        p.setProperty("topics", "prices");
        BrokerConfig c = BrokerProperties.parse(p, Path.of("data"));
        assertEquals(64 << 20, c.storeConfig().segmentSize());
        assertEquals(512L << 10, c.storeConfig().minFreeSpace());
        assertEquals(List.of("orders", "invoices"), c.queues());
        assertEquals(List.of("prices"), c.topics());
        p.setProperty("segmentSize", "2g");
        ConfigException refused = assertThrows(ConfigException.class, () -> BrokerProperties.parse(p, Path.of("data")));
        assertTrue(refused.getMessage().contains("segmentSize = '2g'"), refused.getMessage());
    }

    @Test
    void unknownPropertyIsRefused() {
        Properties p = new Properties();
        p.setProperty("brokerNmae", "typo");
        assertThrows(IllegalArgumentException.class, () -> BrokerProperties.parse(p, Path.of("data")));
    }

    @Test
    void flagsOverrideThePropertiesFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("broker.properties");
        Files.writeString(file, "port=11000\nbrokerName=from-file\n");
        Launcher.BrokerCommand command = new Launcher.BrokerCommand();
        new CommandLine(command).parseArgs("-c", file.toString(), "--port", "12000", "--data-dir", dir.toString(),
                "-n", "127.0.0.1:9999");
        BrokerConfig c = command.broker.config();
        assertEquals(12000, c.port());
        assertEquals("from-file", c.brokerName());
        assertEquals(dir, c.dataDir());
        assertEquals("127.0.0.1:9999", command.nameServers);
    }

    @Test
    void securityKeysReachTheBroker() {
        Properties p = new Properties();
        assertEquals(null, BrokerProperties.parse(p, Path.of("data")).usersFile());
        assertEquals(true, BrokerProperties.parse(p, Path.of("data")).allowAnonymous());
        p.setProperty("usersFile", "conf/users.properties");
        p.setProperty("allowAnonymous", "false");
        BrokerConfig c = BrokerProperties.parse(p, Path.of("data"));
        assertEquals(Path.of("conf/users.properties"), c.usersFile());
        assertEquals(false, c.allowAnonymous());
    }

    @Test
    void noAnonymousAccessWithoutAUsersFileOrWithAMistypedSwitchIsRefused() {
        Properties p = new Properties();
        p.setProperty("allowAnonymous", "false");
        assertThrows(IllegalArgumentException.class, () -> BrokerProperties.parse(p, Path.of("data")));
        p.setProperty("usersFile", "users.properties");
        p.setProperty("allowAnonymous", "flase");
        assertThrows(IllegalArgumentException.class, () -> BrokerProperties.parse(p, Path.of("data")));
    }

    @Test
    void hashPasswordPrintsAUsersFileLineForThePasswordOnStandardInput() {
        InputStream in = System.in;
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream("wonderland\n".getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            assertEquals(0, new CommandLine(new Launcher()).execute("hash-password", "alice"));
        } finally {
            System.setIn(in);
            System.setOut(out);
        }
        String line = printed.toString(StandardCharsets.UTF_8).trim();
        assertTrue(line.startsWith("alice = pbkdf2-sha256$"), line);
        assertFalse(line.contains("wonderland"));
        assertTrue(PasswordHash.parse(line.substring("alice = ".length())).matches("wonderland".toCharArray()));
    }

    @Test
    void nameServerSecretKeysReachTheBroker(@TempDir Path dir) throws Exception {
        Properties p = new Properties();
        assertEquals(null, BrokerProperties.parse(p, Path.of("data")).nameServerSecret());
        p.setProperty("nameServerSecret", "the-cluster-secret-0123456789");
        assertNotNull(BrokerProperties.parse(p, Path.of("data")).nameServerSecret());

        Path file = dir.resolve("namesrv.secret");
        Files.writeString(file, "the-cluster-secret-0123456789\n");
        p.setProperty("nameServerSecretFile", file.toString());
        assertThrows(IllegalArgumentException.class, () -> BrokerProperties.parse(p, Path.of("data")), "both keys");
        p.remove("nameServerSecret");
        assertNotNull(BrokerProperties.parse(p, Path.of("data")).nameServerSecret());
    }

    @Test
    void tooShortANameServerSecretIsRefused() {
        Properties p = new Properties();
        p.setProperty("nameServerSecret", "secret");
        assertThrows(IllegalArgumentException.class, () -> BrokerProperties.parse(p, Path.of("data")));
    }

    @Test
    void standaloneGeneratesOneSecretAtFirstStartAndAClientFindsItsRoutes(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("broker.properties");
        Files.writeString(config, "queues=orders\n");
        Path data = dir.resolve("data");

        String generated;
        try (Started first = standalone(config, data)) {
            Path secretFile = data.resolve(SecretFile.NAME);
            assertTrue(Files.exists(secretFile), "secret generated into the data directory");
            generated = Files.readString(secretFile);
            assertFalse(first.client().queryRoute("orders").get(5, TimeUnit.SECONDS).isEmpty());

            RegisterBrokerRequest unsigned = new RegisterBrokerRequest(
                    new BrokerInfo("DefaultCluster", "broker-a", 0, "10.6.6.6:10911"), List.of(), 1);
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> new NameServerRegistrations(first.remoting(), first.client().addresses(), Duration.ofSeconds(3))
                            .registerBroker(unsigned).get(5, TimeUnit.SECONDS));
            assertEquals(ErrorStatus.BROKER_NOT_AUTHENTICATED, ((RemotingCommandException) refused.getCause()).status());
        }
        try (Started second = standalone(config, data)) {
            assertEquals(generated, Files.readString(data.resolve(SecretFile.NAME)), "the secret is kept");
            assertFalse(second.client().queryRoute("orders").get(5, TimeUnit.SECONDS).isEmpty());
        }
    }

    @Test
    void standaloneCreatesASmallCommitLogSegmentUnlessTheSizeIsSet(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("broker.properties");
        Files.writeString(config, "queues=orders\n");
        Path data = dir.resolve("data");
        try (Started started = standalone(config, data)) {
            assertEquals(List.of((long) Launcher.Standalone.SEGMENT_SIZE), segmentSizes(data));
        }
        Files.writeString(config, "queues=orders\nsegmentSize=16m\n");
        Path sized = dir.resolve("sized");
        try (Started started = standalone(config, sized)) {
            assertEquals(List.of(16L << 20), segmentSizes(sized), "an explicit segmentSize wins");
        }
    }

    private static List<Long> segmentSizes(Path data) throws Exception {
        try (var files = Files.list(data.resolve("commitlog"))) {
            return files.map(f -> f.toFile().length()).toList();
        }
    }

    @Test
    void aStandaloneServerBoundToEveryInterfaceAnnouncesAReachableAddress(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("broker.properties");
        Files.writeString(config, "queues=orders\nhost=0.0.0.0\n");
        try (Started started = standalone(config, dir.resolve("data"))) {
            String nameServer = ((NameServer) started.parts().get(0)).address();
            String broker = started.client().queryRoute("orders").get(5, TimeUnit.SECONDS).brokers().get(0)
                    .broker().address();
            String expected = java.net.InetAddress.getLocalHost().getCanonicalHostName();
            assertEquals(expected, broker.substring(0, broker.lastIndexOf(':')), "the broker announces " + broker);
            assertEquals(expected, nameServer.substring(0, nameServer.lastIndexOf(':')),
                    "the NameServer is bound and announced as the broker is: " + nameServer);
        }
    }

    @Test
    void anAdvertisedHostIsWhatTheBrokerAnnounces(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("broker.properties");
        Files.writeString(config, "queues=orders\n");
        Launcher.Standalone command = new Launcher.Standalone();
        new CommandLine(command).parseArgs("-c", config.toString(), "--data-dir", dir.resolve("data").toString(),
                "--port", "0", "--namesrv-port", "0", "--advertised-host", "localhost");
        List<AutoCloseable> parts = command.start();
        try (RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults())) {
            String address = ((NameServer) parts.get(0)).address();
            assertTrue(address.startsWith("localhost:"), address);
            NameServerClient client = new NameServerClient(remoting, List.of(address), Duration.ofSeconds(3));
            String broker = client.queryRoute("orders").get(5, TimeUnit.SECONDS).brokers().get(0).broker().address();
            assertTrue(broker.startsWith("localhost:"), broker);
        } finally {
            for (int i = parts.size() - 1; i >= 0; i--) {
                parts.get(i).close();
            }
        }
    }

    @Test
    void aNameServerPortInUseIsOneLineNamingTheRoleAndThePort() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String err = refusedStart("namesrv", "-p", Integer.toString(taken.getLocalPort()));
            assertEquals("ramjet-server namesrv: NameServer cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + ": Address already in use", err);
        }
    }

    @Test
    void aBrokerPortInUseIsOneLineNamingTheRoleAndThePort(@TempDir Path dir) throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String err = refusedStart("broker", "-p", Integer.toString(taken.getLocalPort()), "--data-dir",
                    dir.toString(), "-n", "127.0.0.1:1", "-s", "segmentSize=1m");
            assertEquals("ramjet-server broker: broker cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + ": Address already in use", err);
        }
    }

    @Test
    void aMalformedValueRefusesTheStartInOneLineNamingKeyValueAndForm(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("broker.properties");
        Files.writeString(file, "flushPolicy=sometimes\n");
        String err = refusedStart("broker", "-c", file.toString(), "--data-dir", dir.toString());
        assertEquals("ramjet-server broker: broker property flushPolicy = 'sometimes' is not valid; expected"
                + " SYNC_GROUP_COMMIT or ASYNC", err);
    }

    @Test
    void anUnknownKeyAfterSetRefusesTheStartNamingIt(@TempDir Path dir) throws Exception {
        String err = refusedStart("standalone", "--data-dir", dir.toString(), "-s", "segmentSise=64m");
        assertTrue(err.startsWith("ramjet-server standalone: unknown broker property 'segmentSise' (value '64m');"
                + " known keys: [clusterName,"), err);
    }

    @Test
    void storeKeysReachTheStoreFromTheFileAndFromSet(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("broker.properties");
        Files.writeString(file, "flushPolicy=ASYNC\nmaxRecordSize=1m\ncheckpointIntervalMs=500\n");
        Launcher.BrokerCommand command = new Launcher.BrokerCommand();
        new CommandLine(command).parseArgs("-c", file.toString(), "--data-dir", dir.toString(),
                "-s", "maxRecordSize=2m", "--set", "flushIntervalMs=50", "-s", "consumeQueueEntriesPerFile=1000");
        io.ramjet.storage.StoreConfig store = command.broker.config().storeConfig();
        assertEquals(io.ramjet.storage.FlushPolicy.ASYNC, store.flushPolicy());
        assertEquals(2 << 20, store.maxRecordSize(), "--set wins over the file");
        assertEquals(Duration.ofMillis(500), store.checkpointInterval());
        assertEquals(Duration.ofMillis(50), store.flushInterval());
        assertEquals(1000, store.consumeQueueEntriesPerFile());
        assertEquals(dir, store.directory(), "one data directory: the store's");
    }

    /** Runs a start that must be refused; returns what it printed on the error stream. */
    private static String refusedStart(String... args) {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine commandLine = Launcher.commandLine();
        commandLine.setErr(new java.io.PrintWriter(err, true));
        assertEquals(Launcher.REFUSED, commandLine.execute(args));
        return err.toString().strip();
    }

    /** A standalone server on ephemeral ports, with a NameServer client of its own. */
    private record Started(List<AutoCloseable> parts, RemotingClient remoting, NameServerClient client)
            implements AutoCloseable {
        @Override
        public void close() throws Exception {
            remoting.close();
            for (int i = parts.size() - 1; i >= 0; i--) {
                parts.get(i).close();
            }
        }
    }

    private static Started standalone(Path config, Path data) throws Exception {
        Launcher.Standalone command = new Launcher.Standalone();
        new CommandLine(command).parseArgs("-c", config.toString(), "--data-dir", data.toString(), "--port", "0",
                "--namesrv-port", "0");
        List<AutoCloseable> parts = command.start();
        RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults());
        String address = ((NameServer) parts.get(0)).address();
        return new Started(parts, remoting, new NameServerClient(remoting, List.of(address), Duration.ofSeconds(3)));
    }
}
