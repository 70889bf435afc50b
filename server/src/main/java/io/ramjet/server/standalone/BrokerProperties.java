package io.ramjet.server.standalone;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A broker's configuration from key-value pairs (a properties file, the launcher's {@code --set}),
 * bound through {@link BrokerKeys}; a key not given keeps its default. An unknown key or a value
 * not in its key's form is refused with a {@link ConfigException} naming both, so a typo does not
 * pass silently.
 */
public final class BrokerProperties {

    private BrokerProperties() {
    }

    public static BrokerConfig load(Path file, Path defaultDataDir) throws IOException {
        BrokerConfigBuilder builder = BrokerConfig.builder(defaultDataDir);
        apply(read(file), builder);
        return build(builder);
    }

    /** The defaults with {@code p} applied. */
    public static BrokerConfig parse(Properties p, Path defaultDataDir) {
        BrokerConfigBuilder builder = BrokerConfig.builder(defaultDataDir);
        apply(p, builder);
        return build(builder);
    }

    static Properties read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        }
        return p;
    }

    /** Sets every key of {@code p} on {@code builder}, in key order so that errors come in a stable order. */
    static void apply(Properties p, BrokerConfigBuilder builder) {
        Map<String, String> values = new TreeMap<>();
        p.stringPropertyNames().forEach(key -> values.put(key, p.getProperty(key)));
        apply(values, builder);
    }

    static void apply(Map<String, String> values, BrokerConfigBuilder builder) {
        if (values.containsKey("nameServerSecret") && values.containsKey("nameServerSecretFile")) {
            throw new ConfigException("set broker property nameServerSecret or nameServerSecretFile, not both");
        }
        if (values.containsKey("controllerAddresses") && (values.containsKey("role")
                || values.containsKey("masterAddress"))) {
            throw new ConfigException("set broker property controllerAddresses or role/masterAddress, not both: in"
                    + " controller mode the controllers decide the role");
        }
        for (Map.Entry<String, String> entry : values.entrySet()) {
            BrokerKey<?> key = BrokerKeys.named(entry.getKey());
            if (key == null) {
                throw new ConfigException("unknown broker property '" + entry.getKey() + "' (value '"
                        + entry.getValue() + "'); known keys: "
                        + BrokerKeys.ALL.stream().map(BrokerKey::name).toList());
            }
            key.apply(builder, entry.getValue());
        }
    }

    /** Builds, stating a range error (say, {@code maxDeliveries must be positive}) as a configuration error. */
    static BrokerConfig build(BrokerConfigBuilder builder) {
        try {
            return builder.build();
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("broker configuration refused: " + e.getMessage(), e);
        }
    }
}
