package io.ramjet.server.standalone;

import io.ramjet.protocol.remoting.NameServerSecret;
import io.ramjet.server.broker.BrokerConfig;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * A {@link BrokerConfig} read from a properties file; every key is optional and defaults to
 * {@link BrokerConfig#defaults}. Keys: {@code clusterName, brokerName, brokerId, host, port,
 * nameServers} (comma-separated {@code host:port}), {@code dataDir, autoCreateDestinations,
 * queuesPerDestination, maxDeliveries, deadLetterPrefix,
 * heartbeatIntervalMs, diskUseLimit, diskFullBlockMs, transactionCheckAfterMs,
 * transactionCheckIntervalMs, transactionMaxChecks, segmentSize, minFreeSpace} (bytes, with an optional
 * {@code k}, {@code m} or {@code g} suffix for KiB, MiB, GiB), {@code queues, topics} (comma-separated names
 * created at start), {@code usersFile} (path of the users file), {@code allowAnonymous} (true or false),
 * {@code nameServerSecret} (the secret the NameServers require) or {@code nameServerSecretFile} (a file
 * holding it; read at load).
 * An unknown key is refused, so a typo does not pass silently.
 */
public final class BrokerProperties {

    private static final Set<String> KEYS = Set.of("clusterName", "brokerName", "brokerId", "host", "port",
            "nameServers", "dataDir", "autoCreateDestinations", "queuesPerDestination", "maxDeliveries",
            "deadLetterPrefix", "heartbeatIntervalMs", "diskUseLimit", "diskFullBlockMs",
            "transactionCheckAfterMs", "transactionCheckIntervalMs", "transactionMaxChecks", "segmentSize", "minFreeSpace",
            "queues", "topics", "usersFile", "allowAnonymous", "nameServerSecret", "nameServerSecretFile");

    private BrokerProperties() {
    }

    public static BrokerConfig load(Path file, Path defaultDataDir) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        }
        return parse(p, defaultDataDir);
    }

    /** @throws UncheckedIOException when {@code nameServerSecretFile} cannot be read */
    public static BrokerConfig parse(Properties p, Path defaultDataDir) {
        for (String key : p.stringPropertyNames()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown broker property '" + key + "'; known: " + KEYS);
            }
        }
        BrokerConfig d = BrokerConfig.defaults(defaultDataDir);
        return new BrokerConfig(
                p.getProperty("clusterName", d.clusterName()),
                p.getProperty("brokerName", d.brokerName()),
                Long.parseLong(p.getProperty("brokerId", Long.toString(d.brokerId()))),
                p.getProperty("host", d.host()),
                Integer.parseInt(p.getProperty("port", Integer.toString(d.port()))),
                p.containsKey("nameServers") ? list(p.getProperty("nameServers")) : d.nameServers(),
                Path.of(p.getProperty("dataDir", d.dataDir().toString())),
                Boolean.parseBoolean(p.getProperty("autoCreateDestinations", Boolean.toString(d.autoCreateDestinations()))),
                Integer.parseInt(p.getProperty("queuesPerDestination", Integer.toString(d.queuesPerDestination()))),
                Integer.parseInt(p.getProperty("maxDeliveries", Integer.toString(d.maxDeliveries()))),
                p.getProperty("deadLetterPrefix", d.deadLetterPrefix()),
                millis(p, "heartbeatIntervalMs", d.heartbeatInterval()),
                Double.parseDouble(p.getProperty("diskUseLimit", Double.toString(d.diskUseLimit()))),
                millis(p, "diskFullBlockMs", d.diskFullBlock()),
                millis(p, "transactionCheckAfterMs", d.transactionCheckAfter()),
                millis(p, "transactionCheckIntervalMs", d.transactionCheckInterval()),
                Integer.parseInt(p.getProperty("transactionMaxChecks", Integer.toString(d.transactionMaxChecks()))),
                Math.toIntExact(bytes(p, "segmentSize", d.segmentSize())),
                bytes(p, "minFreeSpace", d.minFreeSpace()),
                p.containsKey("queues") ? list(p.getProperty("queues")) : d.queues(),
                p.containsKey("topics") ? list(p.getProperty("topics")) : d.topics(),
                p.containsKey("usersFile") ? Path.of(p.getProperty("usersFile").trim()) : d.usersFile(),
                bool(p, "allowAnonymous", d.allowAnonymous()),
                nameServerSecret(p));
    }

    private static NameServerSecret nameServerSecret(Properties p) {
        String secret = p.getProperty("nameServerSecret");
        String file = p.getProperty("nameServerSecretFile");
        if (secret != null && file != null) {
            throw new IllegalArgumentException("set nameServerSecret or nameServerSecretFile, not both");
        }
        if (file != null) {
            try {
                return NameServerSecret.fromFile(Path.of(file.trim()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read nameServerSecretFile " + file.trim(), e);
            }
        }
        return secret == null ? null : NameServerSecret.of(secret);
    }

    static List<String> list(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** A byte count: digits with an optional k, m or g (binary multiples, either case). */
    static long bytes(Properties p, String key, long fallback) {
        String value = p.getProperty(key);
        if (value == null) {
            return fallback;
        }
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        int shift = switch (v.isEmpty() ? ' ' : v.charAt(v.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        long number = Long.parseLong(shift == 0 ? v : v.substring(0, v.length() - 1).trim());
        if (number < 0 || number > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(key + " out of range: " + value);
        }
        return number << shift;
    }

    /** Only {@code true} or {@code false}: a typo in a security switch must not read as false. */
    private static boolean bool(Properties p, String key, boolean fallback) {
        String value = p.getProperty(key);
        if (value == null) {
            return fallback;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false: " + value);
        };
    }

    private static Duration millis(Properties p, String key, Duration fallback) {
        String value = p.getProperty(key);
        return value == null ? fallback : Duration.ofMillis(Long.parseLong(value.trim()));
    }
}
