package io.ramjet.server.standalone;

import io.ramjet.protocol.remoting.tls.ServerTls.ClientAuthMode;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.config.NameServerSecret;
import io.ramjet.storage.FlushPolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * How a configuration value is written: its name in the key table of docs/configuration.md, the accepted form an
 * error message quotes, and the parser. A parser throws {@link IllegalArgumentException} (or
 * {@link UncheckedIOException} for a file it must read) on a value not in the accepted form.
 *
 * @param name  the type column of that key table
 * @param form  what a valid value looks like, quoted by errors
 * @param parse text to value
 */
record ValueType<T>(String name, String form, Function<String, T> parse) {

    static final ValueType<String> TEXT = new ValueType<>("text", "any text", s -> s);
    static final ValueType<Long> LONG = new ValueType<>("integer", "a whole number", s -> Long.parseLong(s.trim()));
    static final ValueType<Integer> INT = new ValueType<>("integer", "a whole number below 2^31",
            s -> Integer.parseInt(s.trim()));
    static final ValueType<Integer> PORT = new ValueType<>("port", "a port number from 0 to 65535", ValueType::port);
    static final ValueType<Double> FRACTION = new ValueType<>("fraction", "a number above 0 and at most 1",
            s -> Double.parseDouble(s.trim()));
    static final ValueType<Boolean> BOOLEAN = new ValueType<>("boolean", "true or false", ValueType::bool);
    static final ValueType<Duration> MILLIS = new ValueType<>("milliseconds", "a whole number of milliseconds",
            s -> Duration.ofMillis(nonNegative(Long.parseLong(s.trim()))));
    static final ValueType<Long> BYTES = new ValueType<>("bytes",
            "a byte count: digits with an optional k, m or g suffix (KiB, MiB, GiB)", ValueType::bytes);
    static final ValueType<Integer> INT_BYTES = new ValueType<>("bytes",
            "a byte count below 2g: digits with an optional k, m or g suffix (KiB, MiB, GiB)",
            s -> Math.toIntExact(bytes(s)));
    static final ValueType<List<String>> LIST = new ValueType<>("list", "comma-separated values", ValueType::list);
    static final ValueType<Path> PATH = new ValueType<>("path", "a file path", s -> Path.of(s.trim()));
    static final ValueType<FlushPolicy> FLUSH_POLICY = new ValueType<>("flush policy",
            "SYNC_GROUP_COMMIT or ASYNC", s -> FlushPolicy.valueOf(s.trim().toUpperCase(Locale.ROOT)));
    static final ValueType<ReplicationConfig.Role> ROLE = new ValueType<>("role", "MASTER or SLAVE",
            s -> ReplicationConfig.Role.valueOf(s.trim().toUpperCase(Locale.ROOT)));
    static final ValueType<ReplicationConfig.Mode> REPLICATION_MODE = new ValueType<>("replication mode",
            "SYNC or ASYNC", s -> ReplicationConfig.Mode.valueOf(s.trim().toUpperCase(Locale.ROOT)));
    static final ValueType<ClientAuthMode> CLIENT_AUTH = new ValueType<>("client auth", "none, optional or required",
            ClientAuthMode::parse);
    static final ValueType<NameServerSecret> SECRET = new ValueType<>("text",
            "at least 16 characters", NameServerSecret::of);
    static final ValueType<NameServerSecret> SECRET_FILE = new ValueType<>("path",
            "a readable file holding at least 16 characters", ValueType::secretFile);
    static final ValueType<ClusterSecret> CLUSTER_SECRET = new ValueType<>("text",
            "at least 16 characters", ClusterSecret::of);
    static final ValueType<ClusterSecret> CLUSTER_SECRET_FILE = new ValueType<>("path",
            "a readable file holding at least 16 characters", ValueType::clusterSecretFile);

    /** Comma-separated, each trimmed, empty ones dropped. */
    static List<String> list(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static int port(String s) {
        int port = Integer.parseInt(s.trim());
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port);
        }
        return port;
    }

    /** Only {@code true} or {@code false}: a typo in a security switch must not read as false. */
    private static boolean bool(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(s);
        };
    }

    /** Digits with an optional k, m or g (binary multiples, either case). */
    private static long bytes(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        int shift = switch (v.isEmpty() ? ' ' : v.charAt(v.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        long number = nonNegative(Long.parseLong(shift == 0 ? v : v.substring(0, v.length() - 1).trim()));
        if (number > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(value);
        }
        return number << shift;
    }

    private static long nonNegative(long n) {
        if (n < 0) {
            throw new IllegalArgumentException(Long.toString(n));
        }
        return n;
    }

    private static ClusterSecret clusterSecretFile(String s) {
        try {
            return ClusterSecret.fromFile(Path.of(s.trim()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + s.trim(), e);
        }
    }

    private static NameServerSecret secretFile(String s) {
        try {
            return NameServerSecret.fromFile(Path.of(s.trim()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + s.trim(), e);
        }
    }
}
