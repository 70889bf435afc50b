package io.ramjet.server.standalone;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrokerKeysTest {

    private static final String TABLE_HEADER = "| key | type | default | meaning |";

    @Test
    void theConfigurationPagesTableIsTheKeyTable() throws Exception {
        List<String> page = Files.readAllLines(Path.of("..", "docs", "configuration.md"));
        int start = page.indexOf(TABLE_HEADER);
        assertTrue(start >= 0, "docs/configuration.md has a key table starting " + TABLE_HEADER);
        List<String> documented = page.subList(start, page.size()).stream()
                .takeWhile(line -> line.startsWith("|")).toList();
        String expected = expectedTable();
        assertEquals(expected, String.join("\n", documented),
                "docs/configuration.md's broker key table differs from BrokerKeys; the table BrokerKeys gives:\n" + expected);
    }

    @Test
    void theDistributionsPropertiesFileShowsEveryKey() throws Exception {
        Set<String> shown = Files.readAllLines(Path.of("..", "dist", "src", "dist", "etc", "broker.properties")).stream()
                .map(line -> line.strip())
                .filter(line -> line.startsWith("#") && line.contains("="))
                .map(line -> line.substring(1, line.indexOf('=')).strip())
                .filter(name -> !name.isEmpty() && !name.contains(" "))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> keys = BrokerKeys.ALL.stream().map(BrokerKey::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(keys, shown, "dist/src/dist/etc/broker.properties must show every key of BrokerKeys, commented");
    }

    @Test
    void everyDocumentedDefaultIsTheDefault() {
        Path dataDir = Path.of("./data");
        BrokerConfigBuilder builder = BrokerConfig.builder(dataDir);
        Properties literal = new Properties();
        BrokerKeys.ALL.stream().filter(BrokerKey::hasLiteralDefault)
                .forEach(key -> literal.setProperty(key.name(), key.defaultValue()));
        BrokerProperties.apply(literal, builder);
        assertEquals(BrokerConfig.defaults(dataDir), builder.build());
    }

    @Test
    void everyKeyChangesTheConfiguration() {
        Map<String, String> changed = Map.ofEntries(Map.entry("clusterName", "c"), Map.entry("brokerName", "b"),
                Map.entry("brokerId", "1"), Map.entry("host", "0.0.0.0"), Map.entry("advertisedHost", "mq.example"),
                Map.entry("port", "1"), Map.entry("advertisedPort", "2"), Map.entry("nativeTransport", "false"), Map.entry("nameServers", "a:1,b:2"), Map.entry("dataDir", "elsewhere"),
                Map.entry("autoCreateDestinations", "false"), Map.entry("queues", "q"), Map.entry("topics", "t"),
                Map.entry("queuesPerDestination", "1"), Map.entry("maxDeliveries", "2"),
                Map.entry("deadLetterPrefix", "DEAD."), Map.entry("messageGroups", "false"),
                Map.entry("groupIdleTimeoutMs", "1"), Map.entry("groupRebalanceOnJoin", "true"),
                Map.entry("heartbeatIntervalMs", "1"),
                Map.entry("diskUseLimit", "0.5"), Map.entry("diskFullBlockMs", "1"),
                Map.entry("transactionCheckAfterMs", "1"), Map.entry("transactionCheckIntervalMs", "1"),
                Map.entry("transactionMaxChecks", "1"), Map.entry("producerIdleExpiryMs", "60000"),
                Map.entry("producerTableMax", "10"), Map.entry("segmentSize", "64m"),
                Map.entry("maxRecordSize", "1m"), Map.entry("minFreeSpace", "1k"), Map.entry("flushPolicy", "async"),
                Map.entry("flushIntervalMs", "1"), Map.entry("checkpointIntervalMs", "1"), Map.entry("retentionIntervalMs", "1"),
                Map.entry("consumeQueueEntriesPerFile", "1"), Map.entry("usersFile", "other-users"),
                Map.entry("allowAnonymous", "false"), Map.entry("nameServerSecret", "0123456789abcdef"),
                Map.entry("tlsCertificate", "chain.pem"), Map.entry("tlsPrivateKey", "key.pem"),
                Map.entry("tlsKeyStore", "broker.p12"), Map.entry("tlsKeyPassword", "secret"),
                Map.entry("tlsClientAuth", "required"), Map.entry("tlsTrustStore", "ca.pem"),
                Map.entry("tlsTrustStorePassword", "secret"), Map.entry("tlsOutbound", "true"),
                Map.entry("tlsVerifyHostname", "false"), Map.entry("tlsProtocols", "TLSv1.3"),
                Map.entry("tlsCipherSuites", "TLS_AES_128_GCM_SHA256"), Map.entry("maxConnections", "5"),
                Map.entry("maxConnectionsPerAddress", "4"), Map.entry("maxUnauthenticatedConnections", "3"),
                Map.entry("maxFrameLengthBeforeLogin", "1k"), Map.entry("frameMemoryLimit", "1m"),
                Map.entry("frameMemoryPerUser", "512k"),
                Map.entry("rolesFile", "roles"), Map.entry("permissionsFile", "permissions"),
                Map.entry("jaasConfigFile", "login.config"), Map.entry("jaasEntry", "other"),
                Map.entry("anonymousRoles", "guests"),
                Map.entry("clusterSecret", "0123456789abcdef"),
                Map.entry("clusterUser", "broker"), Map.entry("clusterPassword", "secret"),
                Map.entry("metricsPort", "9404"), Map.entry("metricsJmx", "true"),
                Map.entry("metricsRequireLogin", "true"),
                Map.entry("role", "slave"), Map.entry("masterAddress", "m:1"), Map.entry("replicationMode", "sync"),
                Map.entry("minInSyncReplicas", "2"), Map.entry("replicaMaxLagMs", "1"),
                Map.entry("replicaSyncTimeoutMs", "1"), Map.entry("masterEpoch", "3"),
                Map.entry("controllerAddresses", "n0=127.0.0.1:1"), Map.entry("controllerHeartbeatMs", "300"),
                Map.entry("controllerTimeoutMs", "3000"), Map.entry("controllerRegisterPatienceMs", "2000"),
                Map.entry("controllerTlsCertificate", "c.pem"), Map.entry("controllerTlsPrivateKey", "k.pem"),
                Map.entry("controllerTlsTrustStore", "t.pem"));
        // keys that only make a valid configuration with others: those are set on both sides
        Map<String, Map<String, String>> companions = Map.of(
                "tlsCertificate", Map.of("tlsPrivateKey", "key.pem"),
                "tlsPrivateKey", Map.of("tlsCertificate", "chain.pem"),
                "tlsClientAuth", Map.of("tlsKeyStore", "broker.p12", "tlsTrustStore", "ca.pem"),
                "tlsKeyPassword", Map.of("tlsKeyStore", "broker.p12"),
                "tlsTrustStorePassword", Map.of("tlsTrustStore", "ca.pem"),
                "role", Map.of("masterAddress", "m:1"),
                "controllerTlsCertificate", Map.of("controllerTlsPrivateKey", "key.pem", "controllerTlsTrustStore", "ca.pem"),
                "controllerTlsPrivateKey", Map.of("controllerTlsCertificate", "chain.pem", "controllerTlsTrustStore", "ca.pem"),
                "controllerTlsTrustStore", Map.of("controllerTlsCertificate", "chain.pem", "controllerTlsPrivateKey", "key.pem"));
        // keys whose companions alone make no valid configuration: the base has neither
        Set<String> allOrNone = Set.of("tlsCertificate", "tlsPrivateKey", "controllerTlsCertificate",
                "controllerTlsPrivateKey", "controllerTlsTrustStore");
        BrokerConfig defaults = BrokerConfig.defaults(Path.of("data"));
        for (BrokerKey<?> key : BrokerKeys.ALL) {
            if (key.name().equals("nameServerSecretFile") || key.name().equals("clusterSecretFile")) {
                continue;
            }
            BrokerConfigBuilder base = defaults.toBuilder().usersFile(Path.of("users"));
            BrokerConfigBuilder builder = defaults.toBuilder().usersFile(Path.of("users"));
            Map<String, String> needed = companions.getOrDefault(key.name(), Map.of());
            if (!allOrNone.contains(key.name())) {
                BrokerProperties.apply(needed, base);
            }
            BrokerProperties.apply(needed, builder);
            String value = changed.get(key.name());
            key.apply(builder, value);
            assertNotEquals(base.build(), builder.build(), key.name());
        }
    }

    @Test
    void aRangeErrorNamesTheKey() {
        Properties p = new Properties();
        p.setProperty("queuesPerDestination", "0");
        ConfigException refused = assertThrows(ConfigException.class, () -> BrokerProperties.parse(p, Path.of("d")));
        assertTrue(refused.getMessage().contains("queuesPerDestination must be positive"), refused.getMessage());
    }

    @Test
    void aNegativeDurationIsRefusedWithItsForm() {
        Properties p = new Properties();
        p.setProperty("heartbeatIntervalMs", "-5");
        ConfigException refused = assertThrows(ConfigException.class, () -> BrokerProperties.parse(p, Path.of("d")));
        assertEquals("broker property heartbeatIntervalMs = '-5' is not valid; expected a whole number of milliseconds",
                refused.getMessage());
    }

    @Test
    void theAdvertisedHostIsTheBindHostUnlessAWildcardOrExplicit() throws Exception {
        BrokerConfig defaults = BrokerConfig.defaults(Path.of("data"));
        assertEquals("127.0.0.1", defaults.advertisedHost());
        BrokerConfig wildcard = defaults.toBuilder().host("0.0.0.0").build();
        assertEquals(java.net.InetAddress.getLocalHost().getCanonicalHostName(), wildcard.advertisedHost());
        assertEquals("mq.example", wildcard.toBuilder().advertisedHost("mq.example").build().advertisedHost());
        assertEquals("0.0.0.0", wildcard.remoting().host(), "bound to every interface");
    }

    private static String expectedTable() {
        String rows = BrokerKeys.ALL.stream()
                .map(key -> "| `" + key.name() + "` | " + key.type().name() + " | "
                        + (key.hasLiteralDefault() ? "`" + key.defaultValue() + "`" : key.defaultValue()) + " | "
                        + key.meaning() + " |")
                .collect(Collectors.joining("\n"));
        return TABLE_HEADER + "\n| --- | --- | --- | --- |\n" + rows;
    }
}
