package io.ramjet.server.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.controller.ControllerClient;
import io.ramjet.controller.ControllerConfig;
import io.ramjet.controller.ControllerGroup;
import io.ramjet.controller.ControllerNode;
import io.ramjet.controller.ControllerReply;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.config.NameServerSecret;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code Launcher controller} and a NameServer embedding a controller node, each a group of one. */
class LauncherControllerTest {

    private static final String SECRET_TEXT = "the launcher tests' cluster secret";
    private static final ClusterSecret SECRET = ClusterSecret.of(SECRET_TEXT);

    @TempDir
    Path dir;

    @Test
    void theControllerCommandRunsANodeThatElectsTheFirstBrokerMaster() throws Exception {
        int port = freePort();
        Launcher.ControllerCommand command = new Launcher.ControllerCommand();
        new CommandLine(command).parseArgs("--config", properties(port).toString());
        try (ControllerNode node = command.start()) {
            assertFirstRegistrationIsMaster(port);
        }
    }

    @Test
    void aNameServerWithAControllerConfigRunsTheNodeAndClosesItWithItself() throws Exception {
        int port = freePort();
        Launcher.NameServerCommand command = new Launcher.NameServerCommand();
        new CommandLine(command).parseArgs("--port", "0", "--controller-config", properties(port).toString());
        NameServer nameServer = command.start();
        try {
            assertFirstRegistrationIsMaster(port);
        } finally {
            nameServer.close();
        }
        try (ServerSocket reuse = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(reuse.isBound(), "the controller's port is free once the NameServer closed");
        }
    }

    @Test
    void theShippedThreeNodeExampleIsOneGroupOfThreeBrokersAndThreeControllers() throws Exception {
        Path ha = Path.of("..", "dist", "src", "dist", "etc", "ha");
        Set<String> peers = new TreeSet<>();
        for (int i = 0; i < 3; i++) {
            ControllerConfig node = Launcher.controllerConfig(ha.resolve("controller-n" + i + ".properties"),
                    SECRET);
            assertEquals("n" + i, node.nodeId());
            peers.add(node.group().toString());
        }
        assertEquals(1, peers.size(), "the controllers name the same peers");
        Set<Long> ids = new TreeSet<>();
        for (int i = 1; i <= 3; i++) {
            BrokerConfig broker = BrokerProperties.load(ha.resolve("broker-" + i + ".properties"), Path.of("data"));
            assertEquals("g1", broker.brokerName());
            assertEquals(peers.iterator().next(), broker.controllerMode().addresses());
            assertEquals(ReplicationConfig.Mode.SYNC, broker.replication().mode());
            ids.add(broker.brokerId());
        }
        assertEquals(Set.of(1L, 2L, 3L), ids);
    }

    /** The shipped example's way: the controller's secret derived from the NameServer's, as the brokers derive it. */
    @Test
    void aControllerInsideANameServerWithASecretDerivesTheClusterSecretFromIt() throws Exception {
        int port = freePort();
        Path secretFile = Files.writeString(dir.resolve("namesrv.secret"), "the example's NameServer secret");
        Path config = Files.writeString(dir.resolve("controller.properties"), "controller.id = n0\n"
                + "controller.peers = n0=127.0.0.1:" + port + "\n"
                + "controller.dataDir = " + dir.resolve("controller") + "\n");
        Launcher.NameServerCommand command = new Launcher.NameServerCommand();
        new CommandLine(command).parseArgs("--port", "0", "--secret-file", secretFile.toString(),
                "--controller-config", config.toString());
        NameServer nameServer = command.start();
        try {
            assertFirstRegistrationIsMaster(port, NameServerSecret.fromFile(secretFile).clusterSecret());
        } finally {
            nameServer.close();
        }
        assertThrows(ConfigException.class, () -> Launcher.controllerConfig(config, null),
                "a controller alone without a cluster secret");
    }

    @Test
    void controllerAddressesWithARoleIsRefused() {
        Properties p = new Properties();
        p.setProperty("controllerAddresses", "n0=127.0.0.1:9870");
        p.setProperty("role", "SLAVE");
        p.setProperty("masterAddress", "127.0.0.1:10911");
        ConfigException refused = assertThrows(ConfigException.class, () -> BrokerProperties.parse(p, Path.of("data")));
        assertTrue(refused.getMessage().contains("controllerAddresses"), refused.getMessage());
    }

    private Path properties(int port) throws IOException {
        Path file = dir.resolve("controller.properties");
        Files.writeString(file, "controller.id = n0\n"
                + "controller.peers = n0=127.0.0.1:" + port + "\n"
                + "controller.dataDir = " + dir.resolve("controller") + "\n"
                + "controller.brokerTimeoutMillis = 3000\n"
                + "controller.clusterSecret = " + SECRET_TEXT + "\n");
        return file;
    }

    private static void assertFirstRegistrationIsMaster(int port) throws IOException {
        assertFirstRegistrationIsMaster(port, SECRET);
    }

    private static void assertFirstRegistrationIsMaster(int port, ClusterSecret secret) throws IOException {
        try (ControllerClient client = ControllerClient.connect(ControllerGroup.parse("n0=127.0.0.1:" + port),
                secret, Duration.ofSeconds(20))) {
            ControllerReply reply = client.register("g1", 7, "127.0.0.1:1", 0);
            assertTrue(reply.ok(), "registration answered " + reply.status());
            assertEquals(7, reply.info().masterId());
            assertEquals(1, reply.info().epoch());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
