package io.ramjet.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerConfigTest {

    @Test
    void peersAreIdEqualsHostColonPortSeparatedByCommas() {
        ControllerGroup group = ControllerGroup.parse("n0=127.0.0.1:9870, n1=localhost:9871");
        assertEquals(List.of(new ControllerPeer("n0", "127.0.0.1", 9870), new ControllerPeer("n1", "localhost", 9871)),
                group.peers());
        assertEquals("n0=127.0.0.1:9870,n1=localhost:9871", group.toString());
        assertThrows(IllegalArgumentException.class, () -> ControllerGroup.parse("n0=127.0.0.1"));
    }

    @Test
    void propertiesNameTheNodeItsDirectoryAndItsPeersAndMayTuneTheRest() {
        Properties properties = new Properties();
        properties.setProperty("controller.id", "n1");
        properties.setProperty("controller.dataDir", "/var/ramjet/controller");
        properties.setProperty("controller.peers", "n0=h0:1,n1=h1:2,n2=h2:3");
        properties.setProperty("controller.uncleanElection", "true");
        properties.setProperty("controller.clusterSecret", TestClusterSecret.TEXT);
        ControllerConfig config = ControllerConfig.fromProperties(properties);
        assertEquals("n1", config.nodeId());
        assertEquals(Path.of("/var/ramjet/controller"), config.dataDir());
        assertEquals(ControllerConfig.DEFAULT_BROKER_TIMEOUT, config.brokerTimeout());
        assertTrue(config.uncleanElection());

        properties.setProperty("controller.brokerTimeoutMillis", "3000");
        assertEquals(Duration.ofSeconds(3), ControllerConfig.fromProperties(properties).brokerTimeout());
    }

    @Test
    void aNodeMustBeOneOfItsPeers() {
        Properties properties = new Properties();
        properties.setProperty("controller.id", "n9");
        properties.setProperty("controller.dataDir", "/tmp/c");
        properties.setProperty("controller.peers", "n0=h0:1");
        assertThrows(IllegalArgumentException.class, () -> ControllerConfig.fromProperties(properties));
        properties.remove("controller.peers");
        assertThrows(IllegalArgumentException.class, () -> ControllerConfig.fromProperties(properties));
    }

    @Test
    void mutualTlsIsThreePemFilesAllOrNone(@TempDir Path dir) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("controller.id", "n0");
        properties.setProperty("controller.dataDir", "/tmp/c");
        properties.setProperty("controller.peers", "n0=h0:1");
        properties.setProperty("controller.clusterSecret", TestClusterSecret.TEXT);
        assertNull(ControllerConfig.fromProperties(properties).tls());

        Path chain = Files.writeString(dir.resolve("chain.pem"), "chain");
        Path key = Files.writeString(dir.resolve("key.pem"), "key");
        Path ca = Files.writeString(dir.resolve("ca.pem"), "ca");
        properties.setProperty("controller.tlsCertificate", chain.toString());
        properties.setProperty("controller.tlsPrivateKey", key.toString());
        assertThrows(IllegalArgumentException.class, () -> ControllerConfig.fromProperties(properties));
        properties.setProperty("controller.tlsTrustStore", ca.toString());
        assertEquals(new ControllerTls(chain, key, ca), ControllerConfig.fromProperties(properties).tls());
        properties.setProperty("controller.tlsTrustStore", dir.resolve("missing.pem").toString());
        ControllerTls missing = ControllerConfig.fromProperties(properties).tls();
        assertThrows(IllegalArgumentException.class, missing::parameters);
    }
}
