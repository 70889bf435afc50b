package io.ramjet.server.standalone;

import io.ramjet.server.broker.BrokerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        assertThrows(ArithmeticException.class, () -> BrokerProperties.parse(p, Path.of("data")));
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
}
